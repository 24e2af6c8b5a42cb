import type {
  Conversation,
  ConversationReport,
  LiveConversationEvent,
  LiveMessageEvent,
  LiveReadEvent,
  Message,
  UnreadCount,
} from '@carmarket/shared';
import type { SessionUser } from '../../plugins/auth.ts';
import { messagesPolicy } from './messages.policy.ts';
import type { LiveEvent } from './live-events.ts';
import type { ConversationRow, MessageRow } from './conversation-reads.ts';
import type { ReportRow } from './reports.service.ts';

/** A message as `viewer` sees it: plain text, as written; `mine` when they sent it. */
export function presentMessage(row: MessageRow, viewer: SessionUser): Message {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    kind: row.kind,
    body: row.body,
    senderName: row.senderName,
    mine: row.senderId === viewer.id,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A conversation as `viewer` sees it: their side, the other person, their unread count and
 * whether they can still write (and if not, why). An admin reading a reported one is on no side.
 */
export function presentConversation(row: ConversationRow, viewer: SessionUser): Conversation {
  const you = row.buyerId === viewer.id ? 'buyer' : row.sellerId === viewer.id ? 'seller' : null;
  return {
    _id: row.id,
    car: {
      _id: row.listingId,
      name: row.carName,
      img: row.carImg,
      reprice: row.carPriceCents,
      currency: row.carCurrency,
      status: row.carStatus,
    },
    you,
    otherName: you === 'buyer' ? row.sellerName : you === 'seller' ? row.buyerName : null,
    buyerName: row.buyerName,
    sellerName: row.sellerName,
    lastMessage: row.lastMessage ? presentMessage(row.lastMessage, viewer) : null,
    unread: you === 'buyer' ? row.buyerUnread : you === 'seller' ? row.sellerUnread : 0,
    closedReason: messagesPolicy.closedBecause(row),
    otherReadUpTo: you === 'buyer' ? row.sellerReadId : you === 'seller' ? row.buyerReadId : null,
    lastActivityAt: row.lastMessageAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentReport(row: ReportRow): ConversationReport {
  return {
    _id: row.id,
    conversationId: row.conversationId,
    reason: row.reason,
    reporterName: row.reporterName,
    reporterSide: row.reporterSide,
    buyerName: row.buyerName,
    sellerName: row.sellerName,
    car: {
      _id: row.car.id,
      name: row.car.name,
      img: row.car.img,
      reprice: row.car.priceCents,
      currency: row.car.currency,
      status: row.car.status,
    },
    createdAt: row.createdAt.toISOString(),
    resolvedAt: row.resolvedAt?.toISOString() ?? null,
  };
}

/** The header badge's numbers. */
export function presentUnread(row: { unread: number; conversations: number }): UnreadCount {
  return { unread: row.unread, conversations: row.conversations };
}

/** A live event as the stream's person sees it: the `data` of the stream's named events. */
export function presentLiveEvent(
  event: LiveEvent,
  userId: string,
): LiveMessageEvent | LiveReadEvent | LiveConversationEvent {
  switch (event.kind) {
    case 'message': {
      const message = event.message!;
      return {
        conversationId: event.conversationId,
        message: {
          _id: message.id,
          conversationId: message.conversationId,
          kind: message.kind,
          body: message.body,
          senderName: message.senderName,
          mine: message.senderId === userId,
          createdAt: message.createdAt,
        },
      };
    }
    case 'read':
      return {
        conversationId: event.conversationId,
        reader: event.readerId === userId ? 'you' : 'other',
        upTo: event.upTo ?? null,
      };
    default:
      return { conversationId: event.conversationId };
  }
}
