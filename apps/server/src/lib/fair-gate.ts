/**
 * At most `size` pieces of work at once in this process, shared fairly between the people who
 * ask: when a place frees up it goes to the waiting person with the fewest pieces running, and
 * among those to the one who started one longest ago. One person with many requests in flight
 * thus waits behind everyone else's first, however early their own arrived.
 */
export interface FairGate {
  /**
   * Waits for a place for `who`, at most `maxWaitMs`; answers the function that gives it back,
   * or null when the wait ran out (nothing is held then).
   */
  enter(who: string, maxWaitMs: number): Promise<(() => void) | null>;
}

interface Waiter {
  who: string;
  admit: (leave: () => void) => void;
}

export function createFairGate(size: number): FairGate {
  let running = 0;
  /** Pieces running per person, and when each person last started one (for the tie-break). */
  const runningOf = new Map<string, number>();
  const lastStartOf = new Map<string, number>();
  const waiting: Waiter[] = [];
  let starts = 0;

  const start = (who: string): (() => void) => {
    running += 1;
    runningOf.set(who, (runningOf.get(who) ?? 0) + 1);
    lastStartOf.set(who, ++starts);
    let left = false;
    return () => {
      if (left) return;
      left = true;
      running -= 1;
      const still = (runningOf.get(who) ?? 1) - 1;
      if (still > 0) runningOf.set(who, still);
      else runningOf.delete(who);
      admitNext();
    };
  };

  /** The fairest waiter: fewest running, then the longest since their last start. */
  const admitNext = () => {
    while (running < size && waiting.length > 0) {
      let best = 0;
      for (let i = 1; i < waiting.length; i++) {
        const a = waiting[i]!.who;
        const b = waiting[best]!.who;
        const byRunning = (runningOf.get(a) ?? 0) - (runningOf.get(b) ?? 0);
        if (
          byRunning < 0 ||
          (byRunning === 0 && (lastStartOf.get(a) ?? 0) < (lastStartOf.get(b) ?? 0))
        ) {
          best = i;
        }
      }
      const [next] = waiting.splice(best, 1);
      next!.admit(start(next!.who));
    }
    // Who has nothing running or waiting needs no tie-break memory: the map stays as small as
    // the people in the gate, even under a flood that never lets the queue empty.
    if (lastStartOf.size > running + waiting.length) {
      const inGate = new Set(waiting.map((waiter) => waiter.who));
      for (const who of lastStartOf.keys()) {
        if (!runningOf.has(who) && !inGate.has(who)) lastStartOf.delete(who);
      }
    }
  };

  return {
    enter(who, maxWaitMs) {
      if (running < size && waiting.length === 0) return Promise.resolve(start(who));
      return new Promise((resolve) => {
        const waiter: Waiter = {
          who,
          admit: (leave) => {
            clearTimeout(timer);
            resolve(leave);
          },
        };
        const timer = setTimeout(() => {
          const at = waiting.indexOf(waiter);
          if (at !== -1) waiting.splice(at, 1);
          resolve(null);
        }, maxWaitMs);
        waiting.push(waiter);
      });
    },
  };
}
