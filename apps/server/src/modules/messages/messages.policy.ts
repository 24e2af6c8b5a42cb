import { holdsRole, type ConversationClosedReason, type ListingStatus } from '@carmarket/shared';
import { allow, decide, deny, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** What the rules need to know of a conversation. */
export interface ConversationFacts {
  buyerId: string;
  sellerId: string;
  carStatus: ListingStatus;
  /** The seller blocked this buyer. */
  blocked: boolean;
  buyerDeleted: boolean;
  sellerDeleted: boolean;
}

/** A Decision to send; a refusal also says its status: 403 (you may not) or 409 (it is closed). */
export type SendDecision = Decision & ({ ok: true } | { ok: false; status: 403 | 409 });

const CAR_GONE: Partial<Record<ListingStatus, string>> = {
  sold: 'This car has been sold',
  withdrawn: 'The seller withdrew this car',
  removed: 'This car was removed from the site',
};

/** Who may talk about which car, and read or write which conversation (issue 16). */
export const messagesPolicy = {
  /** Asking a seller about a car: buyer accounts, never about their own car. */
  canAsk(actor: SessionUser, car: { sellerId: string }): Decision {
    if (car.sellerId === actor.id) return deny('This is your car.');
    if (!holdsRole(actor.roles, 'Buyer'))
      return deny('Only buyer accounts can ask sellers about cars.');
    return allow;
  },

  /**
   * A conversation's members are its buyer and the car's seller; no one else, admins included.
   * A visibility rule, as canRead: whoever fails it is told the conversation does not exist.
   */
  isMember: (actor: SessionUser, conversation: { buyerId: string; sellerId: string }) =>
    conversation.buyerId === actor.id || conversation.sellerId === actor.id,

  /**
   * Reading: its members, and admins while a member's report of it is open (decision 015). Once
   * the report is dealt with, admins are told it does not exist again.
   */
  canRead: (
    actor: SessionUser,
    conversation: { buyerId: string; sellerId: string },
    reportOpen: boolean,
  ) =>
    messagesPolicy.isMember(actor, conversation) || (holdsRole(actor.roles, 'admin') && reportOpen),

  /**
   * Why no new message can be written, or null while it can: the car left the market (sold,
   * withdrawn, removed; a reserved car is still for sale), an account was deleted, or the seller
   * blocked the buyer. Closed conversations stay readable.
   */
  closedBecause(conversation: ConversationFacts): ConversationClosedReason | null {
    if (conversation.buyerDeleted || conversation.sellerDeleted) return 'account-deleted';
    if (conversation.blocked) return 'blocked';
    const status = conversation.carStatus;
    if (status === 'sold' || status === 'withdrawn' || status === 'removed') return status;
    return null;
  },

  /** Writing: a member, while the conversation is open; told plainly why not. */
  canSend(actor: SessionUser, conversation: ConversationFacts): SendDecision {
    const closed = messagesPolicy.closedBecause(conversation);
    if (closed === null) return { ok: true };
    const buyer = conversation.buyerId === actor.id;
    switch (closed) {
      case 'blocked':
        return {
          ok: false,
          status: 403,
          reason: buyer
            ? 'The seller has blocked you, so you cannot send them messages.'
            : 'You blocked this buyer. Unblock them to write again.',
        };
      case 'account-deleted':
        return {
          ok: false,
          status: 409,
          reason: 'The other person’s account was deleted; this conversation is closed.',
        };
      default:
        return {
          ok: false,
          status: 409,
          reason: `${CAR_GONE[closed]}; this conversation is closed to new messages.`,
        };
    }
  },

  /**
   * Acting in a conversation (writing, marking it read, blocking): its two members. Asked of
   * someone who may read it (canRead), so the one refused is an admin reading a reported one.
   */
  canAct: (actor: SessionUser, conversation: { buyerId: string; sellerId: string }) =>
    decide(
      messagesPolicy.isMember(actor, conversation),
      'Only the two people in a conversation can do this; admins only read it.',
    ),

  /** Blocking and unblocking a buyer: the conversation's seller (the buyer may report instead). */
  canBlock: (actor: SessionUser, conversation: { sellerId: string }) =>
    decide(
      conversation.sellerId === actor.id,
      'Only the seller can block; you can report the conversation instead.',
    ),

  /** Reporting: either member. */
  canReport: (actor: SessionUser, conversation: { buyerId: string; sellerId: string }) =>
    decide(
      messagesPolicy.isMember(actor, conversation),
      'Only the two people in a conversation can report it.',
    ),

  /** The reports list and resolving reports: admins. */
  canReview: (actor: SessionUser) =>
    decide(holdsRole(actor.roles, 'admin'), 'This is for admin accounts only.'),
};
