import { spend, type CounterStore, type GiveBack, type Limit } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** How much a person may write (settings in config.ts), counted in the shared counters. */
export interface MessageLimits {
  perMinute: number;
  perDay: number;
  newConversationsPerDay: number;
  /** For an account whose address is not confirmed: a throw-away account reaches few sellers. */
  newConversationsPerDayUnconfirmed: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** The counters answer 503 with sign-in's words while Redis is away; say it for messages. */
const UNAVAILABLE = 'Sending messages is unavailable for a moment.';

/**
 * Counts one message against the person's limits (shared by every process when Redis is set);
 * 429 with Retry-After when one is spent, the day's before the minute's. Answers how to give the
 * count back: a message refused afterwards (under the conversation's lock) counts against
 * neither limit.
 */
export function spendMessage(
  counters: CounterStore,
  limits: MessageLimits,
  userId: string,
): Promise<GiveBack> {
  const perDay: Limit = {
    key: `msg:day:${userId}`,
    max: limits.perDay,
    windowMs: DAY_MS,
    message: `You have sent ${limits.perDay} messages today, the most a day. You can send more tomorrow.`,
  };
  const perMinute: Limit = {
    key: `msg:minute:${userId}`,
    max: limits.perMinute,
    windowMs: MINUTE_MS,
    message: `You can send ${limits.perMinute} messages a minute. Wait a moment, then send it again.`,
  };
  return spend(counters, [perDay, perMinute], { unavailable: UNAVAILABLE });
}

/**
 * A new conversation can mail a seller who never heard of the buyer: its own daily limit, lower
 * until the buyer confirms their address (one count, so confirming lifts it the same day).
 * Answers how to give the count back.
 */
export function spendNewConversation(
  counters: CounterStore,
  limits: MessageLimits,
  actor: SessionUser,
): Promise<GiveBack> {
  const { newConversationsPerDay, newConversationsPerDayUnconfirmed } = limits;
  const max = actor.emailVerified
    ? newConversationsPerDay
    : Math.min(newConversationsPerDay, newConversationsPerDayUnconfirmed);
  const message =
    max < newConversationsPerDay
      ? `You can ask about ${max} new cars a day until you confirm your email address. Open the link we mailed you (or send it again from My account) to ask about up to ${newConversationsPerDay}.`
      : `You can ask about ${max} new cars a day. Your conversations so far are under Messages.`;
  return spend(counters, [{ key: `msg:new:${actor.id}`, max, windowMs: DAY_MS, message }], {
    unavailable: UNAVAILABLE,
  });
}
