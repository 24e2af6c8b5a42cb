// No zod here: web pages import these without pulling in the schema library (decision 002).

/** A message's length, in characters after normalising (issue 16). */
export const MESSAGE_MAX_LENGTH = 2000;
/** A report's reason. */
export const REPORT_REASON_MAX_LENGTH = 1000;
/** Messages per page of a thread (`limit` may ask for fewer or more, up to the maximum). */
export const MESSAGE_PAGE_SIZE = 30;
export const MAX_MESSAGE_PAGE_SIZE = 100;
/** Conversations per page of the list. */
export const CONVERSATION_PAGE_SIZE = 30;

export const MESSAGE_KINDS = ['text', 'booking'] as const;
export type MessageKind = (typeof MESSAGE_KINDS)[number];

/** The name shown for a person whose account was deleted; their messages stay. */
export const DELETED_USER_NAME = 'Deleted user';

/** Why no new message can be sent: the car left the market, the seller blocked, an account went. */
export const CONVERSATION_CLOSED_REASONS = [
  'sold',
  'withdrawn',
  'removed',
  'blocked',
  'account-deleted',
] as const;
export type ConversationClosedReason = (typeof CONVERSATION_CLOSED_REASONS)[number];
