import type { FastifyRequest } from 'fastify';
import type { Database, Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import type { Metrics } from '../../lib/metrics.ts';
import { createFairGate } from '../../lib/fair-gate.ts';
import { formatWait, tooManyRequests, type CounterStore } from '../../lib/rate-limit.ts';
import { withinTimeLimit } from './search.service.ts';
import { addressKey } from '../../lib/proxy-trust.ts';

export interface SearchBudgetDeps {
  database: Pick<Database, 'withStatementLimits'>;
  counters: CounterStore;
  /** SEARCH_CONCURRENCY_PER_PERSON */
  concurrent: number;
  /** SEARCH_CONCURRENCY_PER_PROCESS */
  perProcess: number;
  /** SEARCH_LIMIT_PER_MINUTE */
  perMinute: number;
  /** ANONYMOUS_SEARCH_LIMIT_PER_MINUTE: an address's searches without an account (decision 028). */
  anonymousPerMinute: number;
  /** SEARCH_TIMEOUT_MS */
  timeoutMs: number;
  /** Refusals counted by reason (GET /metrics). */
  metrics: Pick<Metrics, 'searchRefusals'>;
}

/**
 * What one person's searches may cost (issue 29): a few at once, so one session cannot hold
 * the database's connections from everyone else; so many a minute; each statement under a
 * time limit. Searches and category pages (a search of one category) share it. Beside it, a
 * process runs only so many searches at once (decision 025), so that searches leave the
 * database's cores to car pages and bookings; the rest wait their turn, fairly between people.
 */
export interface SearchBudget {
  /** Runs `search` on the handle it is given, within the budget of the person asking; else 429. */
  run<T>(request: FastifyRequest, search: (db: Db) => Promise<T>): Promise<T>;
}

/** The counters answer 503 with sign-in's words while Redis is away; say it for searches. */
async function counted<T>(count: Promise<T>): Promise<T> {
  try {
    return await count;
  } catch (error) {
    if (error instanceof AppError && error.statusCode === 503) {
      throw new AppError(
        503,
        'unavailable',
        'Search is unavailable for a moment. Please try again shortly.',
        {
          retryAfterSeconds: 30,
        },
      );
    }
    throw error;
  }
}

export function createSearchBudget(deps: SearchBudgetDeps): SearchBudget {
  const { counters, concurrent, timeoutMs } = deps;
  const gate = createFairGate(deps.perProcess);
  // A running search's slot is given back when it ends; one a crashed process held lapses this
  // long after it was taken, well past any search's own time limit.
  const slotMs = Math.max(60_000, 10 * timeoutMs);

  return {
    async run(request, search) {
      // Signed in, the person; signed out (where browsing is open), their address, with a minute's
      // allowance of its own.
      const who = request.user ? `user:${request.user.id}` : `ip:${addressKey(request.ip)}`;
      const perMinute = request.user ? deps.perMinute : deps.anonymousPerMinute;
      const runningKey = `search:running:${who}`;
      const minuteKey = `search:minute:${who}`;
      // Both at once: one round trip to Redis before every search.
      const [slot, minute] = await counted(
        Promise.all([
          counters.acquire(runningKey, concurrent, slotMs),
          counters.hit(minuteKey, 60_000),
        ]),
      );
      if (slot === null || minute.count > perMinute) {
        // A refused search costs nothing: its count and its slot go back.
        deps.metrics.searchRefusals.inc({ reason: slot === null ? 'running' : 'per-minute' });
        await Promise.all([
          counters.undo(minuteKey),
          slot === null ? undefined : counters.release(runningKey, slot),
        ]).catch(() => {});
        throw slot === null
          ? tooManyRequests(
              Date.now() + 1000,
              concurrent === 1
                ? 'You have a search running already. Wait for it to finish, then search again.'
                : `You have ${concurrent} searches running already. Wait for one to finish, then search again.`,
            )
          : tooManyRequests(minute.resetAt, (seconds) =>
              request.user
                ? `You have searched ${perMinute} times in the last minute, the most we allow. Try again in ${formatWait(seconds)}.`
                : `Your address has searched ${perMinute} times in the last minute, the most we allow without an account. Try again in ${formatWait(seconds)}, or sign in.`,
            );
      }
      try {
        // A turn in this process's searches, waited for no longer than a search may run.
        const leave = await gate.enter(who, timeoutMs);
        if (!leave) {
          // Not run, so not counted: the web app tries a 503 again, and those tries are free.
          deps.metrics.searchRefusals.inc({ reason: 'busy' });
          await counters.undo(minuteKey).catch(() => {});
          throw new AppError(
            503,
            'unavailable',
            'Search is busy for a moment. Please try again in a few seconds.',
            { retryAfterSeconds: 2 },
          );
        }
        try {
          return await withinTimeLimit(deps.database, timeoutMs, search);
        } finally {
          leave();
        }
      } finally {
        // A search that failed, or whose client went away, gives its slot back too; if the
        // store is away, the slot lapses by itself.
        await counters.release(runningKey, slot).catch(() => {});
      }
    },
  };
}
