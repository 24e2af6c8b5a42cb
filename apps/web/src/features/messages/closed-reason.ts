import { SALE_CONVERSATION_DAYS, type Conversation } from '@carmarket/shared';

/**
 * Why no message can be sent in this conversation now, in words for the person reading it (the
 * server says the same when it refuses one), or null while they can write.
 */
export function closedReasonText(conversation: Pick<Conversation, 'closedReason' | 'you'>) {
  switch (conversation.closedReason) {
    case null:
      return null;
    case 'blocked':
      return conversation.you === 'seller'
        ? 'You blocked this buyer. Unblock them to write again.'
        : 'The seller has blocked you, so you cannot send them messages.';
    case 'sold':
      return 'This car has been sold, so this conversation is closed to new messages.';
    case 'withdrawn':
      return 'The seller withdrew this car, so this conversation is closed to new messages.';
    case 'removed':
      return 'This car was removed from CarMarket, so this conversation is closed to new messages.';
    case 'account-deleted':
      return 'The other person’s account was deleted, so this conversation is closed.';
    case 'sale-settled':
      return `This sale was settled more than ${SALE_CONVERSATION_DAYS} days ago, so this conversation is closed to new messages.`;
  }
}
