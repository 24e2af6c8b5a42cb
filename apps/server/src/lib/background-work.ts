import type { FastifyBaseLogger } from 'fastify';

/**
 * Everything a server process does besides answering requests (decision 022): timed jobs
 * (jobs/, decision 026: the payment sweep, the alert worker ...) and work a request starts that outlives its answer (a
 * sandbox event's delivery, queued mail, account mail). Closing stops the timers, starts nothing
 * new and waits for what is under way, so the database pool ends after the last query.
 */
export class BackgroundWork {
  private readonly running = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly log: Pick<FastifyBaseLogger, 'error' | 'debug'>) {}

  /** Whether close() has begun: long work checks it between batches and stops early. */
  get closing(): boolean {
    return this.closed;
  }

  /**
   * Starts `work` unless closing (work refused then is left for the next process, as after a
   * crash); a failure is logged as "<name> failed", never thrown. Resolves when it is done.
   */
  run(name: string, work: () => Promise<unknown>): Promise<void> {
    if (this.closed) {
      this.log.debug({ work: name }, 'closing: background work not started');
      return Promise.resolve();
    }
    let started: Promise<unknown>;
    try {
      started = work();
    } catch (error) {
      started = Promise.reject(error);
    }
    return this.track(name, started);
  }

  /**
   * Waits on close for work already started elsewhere (a library's background task), which
   * cannot be refused; a failure is logged as "<name> failed".
   */
  track(name: string, work: Promise<unknown>): Promise<void> {
    const tracked: Promise<void> = work
      .then(
        () => undefined,
        (error: unknown) => this.log.error({ err: error, work: name }, `${name} failed`),
      )
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
    return tracked;
  }

  /**
   * Runs `work` every `intervalMs`, one run at a time: a tick during a run is skipped. Answers a
   * stop that ends the timer and waits for the run in progress (jobs/job.ts starts jobs so).
   */
  every(name: string, intervalMs: number, work: () => Promise<unknown>): () => Promise<void> {
    if (this.closed) return async () => {};
    let current: Promise<void> | undefined;
    const timer = setInterval(() => {
      if (current) return;
      current = this.run(name, work).finally(() => {
        current = undefined;
      });
    }, intervalMs);
    timer.unref();
    this.timers.add(timer);
    return async () => {
      clearInterval(timer);
      this.timers.delete(timer);
      await current;
    };
  }

  /** Stops the timers, refuses new work and waits for the work under way. */
  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.timers.clear();
    // Work tracked while waiting (a library's task started by work under way) is waited for too.
    while (this.running.size > 0) await Promise.all(this.running);
  }
}
