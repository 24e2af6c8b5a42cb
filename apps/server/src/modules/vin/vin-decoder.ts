import { Worker } from 'node:worker_threads';
import type { FastifyBaseLogger } from 'fastify';
import type { VinDecode } from '@carmarket/shared';
import { AppError } from '../../lib/errors.ts';
import { presentDecode, type WorkerDecode } from './vin-mapping.ts';

/**
 * The VIN decoder (decision 033): a worker thread holding the vPIC data, started by the first
 * decode and ended after `idleMs` without one, so a process that never decodes pays nothing and
 * a decode (a few hundred milliseconds of SQLite) never blocks the event loop. Answers are kept
 * in memory, most recently used first (a VIN always decodes the same).
 */
export interface VinDecoder {
  /** What `vin` (well formed: 17 characters, no I, O or Q) decodes as; null when it cannot be. */
  decode(vin: string): Promise<VinDecode | null>;
  /** The answer kept for `vin`: undefined when there is none (a decode would be needed). */
  cached(vin: string): VinDecode | null | undefined;
  /** For the measurements of decision 033: whether the thread is up, and its last timings. */
  readonly state: { running: boolean; loadMs?: number; decodeMs?: number };
  /** Ends the thread; a decode after it starts one again. */
  close(): Promise<void>;
}

export interface VinDecoderOptions {
  log: FastifyBaseLogger;
  /** How long the thread stays up after its last decode. */
  idleMs: number;
  /** How long a decode may take, the data's loading included; past it, 503 and a new thread. */
  timeoutMs?: number;
  /** Answers kept in memory. */
  cacheSize?: number;
  /** Decodes waiting at most; past it, 503 (the thread decodes one at a time). */
  maxWaiting?: number;
}

const WORKER_URL = new URL('./vin-worker.mjs', import.meta.url);
const BUSY_MESSAGE = 'VIN decoding is busy for a moment. Please try again shortly.';

type Pending = {
  resolve: (decoded: VinDecode | null) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  vin: string;
};

export function createVinDecoder({
  log,
  idleMs,
  timeoutMs = 20_000,
  cacheSize = 2000,
  maxWaiting = 50,
}: VinDecoderOptions): VinDecoder {
  const cache = new Map<string, VinDecode | null>();
  const inFlight = new Map<string, Promise<VinDecode | null>>();
  const pending = new Map<number, Pending>();
  const state: VinDecoder['state'] = { running: false };
  let worker: Worker | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;

  const unavailable = (message = BUSY_MESSAGE) =>
    new AppError(503, 'unavailable', message, { retryAfterSeconds: 5 });

  /** Ends the thread and fails what waits on it. */
  const stop = (error?: Error) => {
    clearTimeout(idleTimer);
    const ending = worker;
    worker = null;
    state.running = false;
    for (const [id, waiting] of pending) {
      clearTimeout(waiting.timer);
      waiting.reject(error ?? unavailable());
      pending.delete(id);
    }
    return ending ? ending.terminate().then(() => undefined) : Promise.resolve();
  };

  const start = () => {
    const thread = new Worker(WORKER_URL);
    thread.unref();
    thread.on(
      'message',
      (
        message: { ready?: true; loadMs?: number; id?: number } & Partial<WorkerDecode> & {
            decodeMs?: number;
            error?: string;
          },
      ) => {
        if (message.ready) {
          state.loadMs = message.loadMs;
          log.info({ loadMs: message.loadMs }, 'VIN decoder loaded');
          return;
        }
        const waiting = message.id === undefined ? undefined : pending.get(message.id);
        if (!waiting) return;
        pending.delete(message.id!);
        clearTimeout(waiting.timer);
        if (message.error !== undefined) {
          log.error({ vin: waiting.vin, error: message.error }, 'VIN decoding failed');
          waiting.reject(unavailable('VIN decoding failed. Please try again shortly.'));
        } else {
          state.decodeMs = message.decodeMs;
          waiting.resolve(
            presentDecode(waiting.vin, {
              vehicle: message.vehicle ?? null,
              errors: message.errors ?? [],
            }),
          );
        }
        if (pending.size === 0) {
          clearTimeout(idleTimer);
          idleTimer = setTimeout(() => void stop(), idleMs).unref();
        }
      },
    );
    thread.on('error', (error) => {
      log.error({ err: error }, 'the VIN decoder thread failed');
      if (worker === thread) void stop();
    });
    thread.on('exit', () => {
      if (worker === thread) void stop();
    });
    worker = thread;
    state.running = true;
    return thread;
  };

  const remember = (vin: string, decoded: VinDecode | null) => {
    cache.delete(vin);
    cache.set(vin, decoded);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  };

  const ask = (vin: string) =>
    new Promise<VinDecode | null>((resolve, reject) => {
      if (pending.size >= maxWaiting) return reject(unavailable());
      clearTimeout(idleTimer);
      const thread = worker ?? start();
      const id = nextId++;
      const timer = setTimeout(() => {
        // Stuck, or the machine is swamped: a new thread serves the next decode.
        log.warn({ vin, timeoutMs }, 'VIN decoding timed out');
        void stop();
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer, vin });
      thread.postMessage({ id, vin });
    });

  return {
    state,
    cached(vin) {
      const decoded = cache.get(vin);
      if (decoded !== undefined) remember(vin, decoded);
      return decoded;
    },
    decode(vin) {
      const kept = this.cached(vin);
      if (kept !== undefined) return Promise.resolve(kept);
      let decoding = inFlight.get(vin);
      if (!decoding) {
        decoding = ask(vin)
          .then((decoded) => {
            remember(vin, decoded);
            return decoded;
          })
          .finally(() => inFlight.delete(vin));
        inFlight.set(vin, decoding);
      }
      return decoding;
    },
    close: () => stop(unavailable('The server is closing.')),
  };
}
