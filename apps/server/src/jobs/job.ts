import type { BackgroundWork } from '../lib/background-work.ts';
import type { Metrics } from '../lib/metrics.ts';

/**
 * A job: work every server process runs on a timer besides answering requests (decision 026).
 * Each is safe with several processes at once: its steps claim their rows (SKIP LOCKED, or a
 * conditional update), so one process does each piece.
 */
export interface Job<Result = unknown> {
  /** Names it in logs: "<name> failed". */
  name: string;
  /** How long from one run's start to the next's. */
  intervalMs: number;
  /**
   * One run. `stopping()` turns true when the server closes: a run of several batches stops
   * between them, and what is left waits for the next run, on any process. Tests call it for a
   * one-shot run (`app.runAlerts()`).
   */
  run(stopping?: () => boolean): Promise<Result>;
}

/** A started job: `stop()` ends its timer and waits for the run in progress. */
export interface RunningJob {
  name: string;
  stop(): Promise<void>;
}

/**
 * The job, its every run counted (runs, failures, time, when it last succeeded: decision 040),
 * whether its timer or a one-shot call (`app.runAlerts()`) runs it.
 */
export function measured<J extends Job>(job: J, metrics: Metrics['jobs']): J {
  const runs = metrics.runs.labels(job.name);
  const failures = metrics.failures.labels(job.name);
  const lastSuccess = metrics.lastSuccess.labels(job.name);
  const duration = metrics.duration.labels(job.name);
  // Shown at 0 from the start, so a rate or an alert has a series before the first failure.
  runs.inc(0);
  failures.inc(0);
  const run = job.run.bind(job);
  return {
    ...job,
    run: async (stopping?: () => boolean) => {
      const stop = duration.startTimer();
      runs.inc();
      try {
        const result = await run(stopping);
        lastSuccess.set(Date.now() / 1000);
        return result;
      } catch (error) {
        failures.inc();
        throw error;
      } finally {
        stop();
      }
    },
  } as J;
}

/**
 * Starts every job the one way: on its interval, one run at a time (a tick during a run is
 * skipped), as background work, so closing the server waits for a run under way (decision 022).
 */
export function startJobs(jobs: Job[], background: BackgroundWork): RunningJob[] {
  return jobs.map((job) => {
    // Stopped by stopJobs (which closing the server calls before the background work closes)
    // or by the background work closing: either way a run in progress stops between batches.
    let stopped = false;
    const stopTimer = background.every(job.name, job.intervalMs, () =>
      job.run(() => stopped || background.closing),
    );
    return {
      name: job.name,
      stop: () => {
        stopped = true;
        return stopTimer();
      },
    };
  });
}

/** Stops every job, each waiting for its run in progress: none touches the database after. */
export async function stopJobs(running: RunningJob[]): Promise<void> {
  await Promise.all(running.map((job) => job.stop()));
}
