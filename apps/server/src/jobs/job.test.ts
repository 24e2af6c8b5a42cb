import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { BackgroundWork } from '../lib/background-work.ts';
import { startJobs, stopJobs, type Job } from './job.ts';

const quietLog = { error: () => {}, debug: () => {} };

/** A job whose one run works through `batches` batches, stopping between them when asked. */
function batchedJob(batches: number) {
  const done = { batches: 0, runs: 0 };
  const job: Job = {
    name: 'batched',
    intervalMs: 5,
    async run(stopping = () => false) {
      done.runs += 1;
      for (let i = 0; i < batches; i++) {
        await sleep(5);
        done.batches += 1;
        if (stopping()) return;
      }
    },
  };
  return { job, done };
}

describe('jobs (decision 026)', () => {
  it('stop between batches when the server closes, as app.ts closes them', async () => {
    const background = new BackgroundWork(quietLog);
    const { job, done } = batchedJob(1000);
    const running = startJobs([job], background);
    await expect.poll(() => done.batches, { interval: 5 }).toBeGreaterThan(0);
    // The order of app.ts's close hooks: the jobs stop, then the rest of the background work.
    await stopJobs(running);
    await background.close();
    expect(done.runs).toBe(1);
    // A run of 1000 batches (5 s) was cut after the batch in progress, not worked through.
    expect(done.batches).toBeLessThan(100);
  });
});
