import {
  holdsRole,
  isSaleOfCar,
  saleConversationOpen,
  SALE_CONVERSATION_DAYS,
  type ConversationClosedReason,
  type ListingStatus,
} from '@carmarket/shared';
import { allow, conflicting, decide, deny, hide, type Decision } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { listingPolicy } from '../listings/listings.policy.ts';

/** What the rules need to know of a conversation. */
export interface ConversationFacts {
  buyerId: string;
  sellerId: string;
  carStatus: ListingStatus;
  /** The seller blocked this buyer. */
  blocked: boolean;
  buyerDeleted: boolean;
  sellerDeleted: boolean;
  /**
   * The car's latest purchase (its latest paid or refunded booking) when it is this buyer's, with
   * its status and when its money was released or refunded (null while held); null when they
   * never paid for it, or someone bought it after them.
   */
  sale: { status: 'paid' | 'refunded'; settledAt: Date | null } | null;
}

/*
 * The refusals these rules give, and the status each answers with (lib/policy.ts):
 * - not a member, and not an admin while a report is open: told it does not exist (`hide`, 404);
 * - an admin, while no member's report of it is open (never reported, or every report resolved:
 *   decision 015): 404 as well;
 * - an admin reading a reported conversation tries to act in it (`deny`, 403);
 * - the caller may not do this (403), e.g. block as the buyer, ask about one's own car;
 * - the seller blocked the buyer (403; the buyer is told plainly);
 * - the car left the market or an account was deleted (`conflicting`, 409).
 */
const CONVERSATION_NOT_FOUND = 'That conversation was not found.';

/** A conversation's members are its buyer and the car's seller; no one else, admins included. */
const isMember = (actor: SessionUser, conversation: { buyerId: string; sellerId: string }) =>
  conversation.buyerId === actor.id || conversation.sellerId === actor.id;

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
   * Writing about a car (`POST /api/listings/:id/messages`), before the conversation's own rules
   * (canSend): a car one may not see (withdrawn, removed) is not found, unless one talked about it
   * before or it is withdrawn by the refund of one's own purchase (decisions 044, 050); then
   * canAsk. `sale` is the caller's, as in ConversationFacts.
   */
  canAskAbout(
    actor: SessionUser,
    about: {
      car: { sellerId: string; status: ListingStatus };
      hasConversation: boolean;
      sale: ConversationFacts['sale'];
    },
  ): Decision {
    const bought = about.sale !== null && isSaleOfCar(about.sale.status, about.car.status);
    if (!about.hasConversation && !bought) {
      const seeing = listingPolicy.canView(actor, about.car);
      if (!seeing.ok) return seeing;
    }
    return messagesPolicy.canAsk(actor, about.car);
  },

  /**
   * Reading: its members, and admins while a member's report of it is open (decision 015). Once
   * every report of it is resolved, admins (the one who resolved it too) are told it does not
   * exist again: a member asked for a look, not for the thread to stay open to staff for good.
   */
  canRead(
    actor: SessionUser,
    conversation: { buyerId: string; sellerId: string; reportOpen: boolean },
  ): Decision {
    if (isMember(actor, conversation)) return allow;
    if (!holdsRole(actor.roles, 'admin')) return hide(CONVERSATION_NOT_FOUND);
    return conversation.reportOpen ? allow : hide(CONVERSATION_NOT_FOUND);
  },

  /**
   * Why no new message can be written, or null while it can: the car left the market (sold,
   * withdrawn, removed; a reserved car is still for sale), an account was deleted, or the seller
   * blocked the buyer. Closed conversations stay readable.
   *
   * The buyer who paid for the car and its seller are the exception to a sold car (and to one
   * withdrawn by the refund of that payment, decision 044): they talk on while the money is held
   * and for SALE_CONVERSATION_DAYS after it was released or refunded, to hand the car over or
   * sort out a problem; then 'sale-settled'. Everyone else's conversations about it close at the
   * sale (isSaleOfCar: a refunded buyer's too, once the car is sold again).
   */
  closedBecause(
    conversation: ConversationFacts,
    now: Date = new Date(),
  ): ConversationClosedReason | null {
    if (conversation.buyerDeleted || conversation.sellerDeleted) return 'account-deleted';
    if (conversation.blocked) return 'blocked';
    const status = conversation.carStatus;
    if (conversation.sale && isSaleOfCar(conversation.sale.status, status)) {
      return saleConversationOpen(conversation.sale.settledAt, now) ? null : 'sale-settled';
    }
    if (status === 'sold' || status === 'withdrawn' || status === 'removed') return status;
    return null;
  },

  /** Writing: a member, while the conversation is open; told plainly why not. */
  canSend(actor: SessionUser, conversation: ConversationFacts): Decision {
    const closed = messagesPolicy.closedBecause(conversation);
    if (closed === null) return allow;
    const buyer = conversation.buyerId === actor.id;
    switch (closed) {
      case 'blocked':
        return deny(
          buyer
            ? 'The seller has blocked you, so you cannot send them messages.'
            : 'You blocked this buyer. Unblock them to write again.',
        );
      case 'account-deleted':
        return conflicting('The other person’s account was deleted; this conversation is closed.');
      case 'sale-settled':
        return conflicting(
          `This sale was settled more than ${SALE_CONVERSATION_DAYS} days ago; this conversation is closed to new messages.`,
        );
      default:
        return conflicting(`${CAR_GONE[closed]}; this conversation is closed to new messages.`);
    }
  },

  /**
   * Acting in a conversation (writing, marking it read, blocking): its two members. Asked of
   * someone who may read it (canRead), so the one refused is an admin reading a reported one.
   */
  canAct: (actor: SessionUser, conversation: { buyerId: string; sellerId: string }): Decision =>
    isMember(actor, conversation)
      ? allow
      : deny('Only the two people in a conversation can do this; admins only read it.'),

  /** Blocking and unblocking a buyer: the conversation's seller (the buyer may report instead). */
  canBlock: (actor: SessionUser, conversation: { sellerId: string }): Decision =>
    conversation.sellerId === actor.id
      ? allow
      : deny('Only the seller can block; you can report the conversation instead.'),

  /** Reporting: either member (an admin reading it is refused as read-only). */
  canReport: (actor: SessionUser, conversation: { buyerId: string; sellerId: string }): Decision =>
    isMember(actor, conversation)
      ? allow
      : deny('Only the two people in a conversation can report it.'),

  /** The reports list and resolving reports: admins. */
  canReview: (actor: SessionUser): Decision =>
    decide(holdsRole(actor.roles, 'admin'), 'This is for admin accounts only.'),
};
