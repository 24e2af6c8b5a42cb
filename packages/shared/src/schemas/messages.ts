import { z } from 'zod';
import { LISTING_STATUSES } from '../enums.ts';
import { textSchema } from '../text.ts';
import {
  CONVERSATION_CLOSED_REASONS,
  MAX_MESSAGE_PAGE_SIZE,
  MESSAGE_KINDS,
  MESSAGE_MAX_LENGTH,
  REPORT_REASON_MAX_LENGTH,
} from '../messages.ts';
import { IdSchema } from './common.ts';

/** Plain text people type: line breaks allowed, other control characters not (see textSchema). */
export const MessageBodySchema = textSchema('Message', {
  max: MESSAGE_MAX_LENGTH,
  multiline: true,
});

/** `POST /api/listings/:id/messages` and `POST /api/conversations/:id/messages`. */
export const SendMessageSchema = z.object({ body: MessageBodySchema });
export type SendMessageInput = z.infer<typeof SendMessageSchema>;

/** `POST /api/conversations/:id/report`. */
export const ReportConversationSchema = z.object({
  reason: textSchema('Reason', { max: REPORT_REASON_MAX_LENGTH, multiline: true }),
});
export type ReportConversationInput = z.infer<typeof ReportConversationSchema>;

/** Opaque position from an earlier page's `nextCursor`. */
const PageCursorSchema = z
  .string()
  .max(200, 'This cursor is not one this server gave')
  .regex(/^[A-Za-z0-9_-]+$/, 'This cursor is not one this server gave');

const pageLimit = (max: number) =>
  z.coerce
    .number({ message: `Limit must be a whole number from 1 to ${max}` })
    .int(`Limit must be a whole number from 1 to ${max}`)
    .min(1, `Limit must be a whole number from 1 to ${max}`)
    .max(max, `Limit must be a whole number from 1 to ${max}`);

/** `GET /api/conversations/:id/messages?cursor=&limit=`: the newest page first, then older ones. */
export const MessagePageQuerySchema = z.object({
  cursor: PageCursorSchema.optional(),
  limit: pageLimit(MAX_MESSAGE_PAGE_SIZE).optional(),
});

/**
 * `GET /api/conversations?cursor=&limit=&listingId=`: newest activity first; `listingId` keeps
 * only the conversation about that car (the car page asks, to offer it instead of a new one).
 */
export const ConversationPageQuerySchema = z.object({
  cursor: PageCursorSchema.optional(),
  limit: pageLimit(100).optional(),
  listingId: IdSchema.optional(),
});

/**
 * One line of a conversation. `text` is what a person wrote (plain text, shown as text: links
 * too); `booking` is an event line the server writes when the buyer books the car.
 */
export const MessageSchema = z.object({
  _id: z.uuid(),
  conversationId: z.uuid(),
  kind: z.enum(MESSAGE_KINDS),
  body: z.string(),
  /** The sender's name, or "Deleted user". */
  senderName: z.string(),
  /** Whether the caller sent it. */
  mine: z.boolean(),
  createdAt: z.string(),
});
export type Message = z.infer<typeof MessageSchema>;

/** The car a conversation is about, as its card on top of the thread shows it. */
export const ConversationCarSchema = z.object({
  _id: z.uuid(),
  name: z.string(),
  /** Cover photo (thumbnail) URL. */
  img: z.string().nullable(),
  reprice: z.number().int(),
  currency: z.string(),
  status: z.enum(LISTING_STATUSES),
});

export const ConversationSchema = z.object({
  _id: z.uuid(),
  car: ConversationCarSchema,
  /** The caller's side; null for an admin reading a reported conversation. */
  you: z.enum(['buyer', 'seller']).nullable(),
  /** The other person's display name ("Deleted user" once their account is gone); null for admins. */
  otherName: z.string().nullable(),
  buyerName: z.string(),
  sellerName: z.string(),
  lastMessage: MessageSchema.nullable(),
  /** Messages to the caller they have not read. */
  unread: z.number().int(),
  /** Null while messages can be sent; else why not. */
  closedReason: z.enum(CONVERSATION_CLOSED_REASONS).nullable(),
  /** The last message the other person has read, for "Seen" (null: none yet, or an admin). */
  otherReadUpTo: z.uuid().nullable(),
  lastActivityAt: z.string(),
  createdAt: z.string(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

export const ConversationListSchema = z.object({
  items: z.array(ConversationSchema),
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ConversationList = z.infer<typeof ConversationListSchema>;

/** A page of a thread: oldest first within the page; `nextCursor` leads to older messages. */
export const MessagePageSchema = z.object({
  items: z.array(MessageSchema),
  nextCursor: z.string().nullable(),
});
export type MessagePage = z.infer<typeof MessagePageSchema>;

/** `POST /api/listings/:id/messages` and `POST /api/conversations/:id/messages`. */
export const SentMessageSchema = z.object({
  conversationId: z.uuid(),
  message: MessageSchema,
});
export type SentMessage = z.infer<typeof SentMessageSchema>;

/** `GET /api/conversations/unread`: the number in the header's badge. */
export const UnreadCountSchema = z.object({
  /** Unread messages, every conversation together. */
  unread: z.number().int(),
  /** Conversations with at least one. */
  conversations: z.number().int(),
});
export type UnreadCount = z.infer<typeof UnreadCountSchema>;

/** `GET /api/reports` (admins): reports, open ones first, each with the conversation's parties. */
export const ConversationReportSchema = z.object({
  _id: z.uuid(),
  conversationId: z.uuid(),
  reason: z.string(),
  reporterName: z.string(),
  /** The side of the person who reported it. */
  reporterSide: z.enum(['buyer', 'seller']),
  buyerName: z.string(),
  sellerName: z.string(),
  car: ConversationCarSchema,
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
});
export type ConversationReport = z.infer<typeof ConversationReportSchema>;
export const ConversationReportListSchema = z.array(ConversationReportSchema);

/*
 * `GET /api/conversations/stream` (Server-Sent Events). Each event's `id` is the signed-in
 * person's own event number; a reconnecting client sends the last one as `Last-Event-ID` and is
 * sent what it missed. Named events, their `data` as JSON:
 *   ready         { resumed }            the stream is live; resumed: what was missed was replayed
 *   message       LiveMessageEvent       a new message in one of the person's conversations
 *   read          LiveReadEvent          someone read a conversation (the other person: "Seen")
 *   conversation  { conversationId }     it changed otherwise (blocked, unblocked, closed)
 *   reset         {}                     too much was missed to replay: load the lists again
 *   superseded    {}                     ended for a newer tab (past ten): reconnect only when shown
 */
export interface LiveMessageEvent {
  conversationId: string;
  message: Message;
}
export interface LiveReadEvent {
  conversationId: string;
  /** Whether the caller read it (on another tab or device) or the other person did. */
  reader: 'you' | 'other';
  /** The last message read. */
  upTo: string | null;
}
export interface LiveConversationEvent {
  conversationId: string;
}
export interface LiveReadyEvent {
  resumed: boolean;
}
