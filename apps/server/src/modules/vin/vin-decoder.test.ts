import type { FastifyBaseLogger } from 'fastify';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createVinDecoder, VinDecodeFailed } from './vin-decoder.ts';

/*
 * The VIN decoder's bookkeeping of its process (decision 033), against a stand-in process: what a
 * decode that never reached the process leaves behind, and a VIN the process answers failed. The
 * real process is in vin.test.ts.
 */

const TIMEOUT_MS = 20_000;

/**
 * The stand-in decoder processes, made by the mocked `fork` (hoisted above the imports with it):
 * each records what it is sent; the next `failSends` sends throw.
 */
const fake = await vi.hoisted(async () => {
  const { EventEmitter } = await import('node:events');
  class FakeProcess extends EventEmitter {
    pid = 4242;
    exitCode: number | null = null;
    signalCode: NodeJS.Signals | null = null;
    channel = { ref() {}, unref() {} };
    sent: Array<{ id: number; vin: string }> = [];
    killed = false;
    unref() {}
    ref() {}
    send(message: { id: number; vin: string }, callback?: (error: Error | null) => void) {
      if (fake.failSends > 0) {
        fake.failSends -= 1;
        throw new Error('the channel is busy');
      }
      this.sent.push(message);
      callback?.(null);
      return true;
    }
    kill() {
      this.killed = true;
      this.signalCode = 'SIGKILL';
      queueMicrotask(() => this.emit('exit', null, 'SIGKILL'));
      return true;
    }
  }
  const fake = { processes: [] as FakeProcess[], failSends: 0, FakeProcess };
  return fake;
});

vi.mock('node:child_process', () => ({
  fork: () => {
    const started = new fake.FakeProcess();
    fake.processes.push(started);
    return started;
  },
}));

const quiet = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;

/** An answer the process sends for a VIN its data knows nothing of (decodes as null). */
const unknownVin = (id: number) => ({ id, decodeMs: 2, vehicle: null, errors: [] });

describe('the VIN decoder', () => {
  beforeEach(() => {
    fake.processes.length = 0;
    fake.failSends = 0;
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('forgets a decode it could not send, so its timer does not end the process later', async () => {
    const decoder = createVinDecoder({ log: quiet, idleMs: 60_000, timeoutMs: TIMEOUT_MS });
    fake.failSends = 1;
    const first = decoder.decode('1HGCM82633A004352');
    await expect(first).rejects.toMatchObject({ statusCode: 503 });

    // Half a timeout later, another VIN; then past the first one's timeout, before its own.
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS / 2);
    const second = decoder.decode('5YJ3E1EA2KF317000');
    const worker = fake.processes[0]!;
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS / 2 + 1);
    expect(worker.killed).toBe(false);
    expect(worker.sent).toHaveLength(1);
    worker.emit('message', unknownVin(worker.sent[0]!.id));
    await expect(second).resolves.toBeNull();
    await decoder.close();
  });

  it('answers a VIN the process failed on with VinDecodeFailed, and keeps the process', async () => {
    const decoder = createVinDecoder({ log: quiet, idleMs: 60_000, timeoutMs: TIMEOUT_MS });
    const decoding = decoder.decode('1HGCM82633A004352');
    const worker = fake.processes[0]!;
    worker.emit('message', { id: worker.sent[0]!.id, error: 'no such table' });
    await expect(decoding).rejects.toBeInstanceOf(VinDecodeFailed);
    await expect(decoding).rejects.toMatchObject({ statusCode: 503 });
    expect(worker.killed).toBe(false);
    await decoder.close();
  });
});
