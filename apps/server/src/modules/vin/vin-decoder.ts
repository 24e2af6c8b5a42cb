import { fork, type ChildProcess } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { VinDecode } from '@carmarket/shared';
import { AppError } from '../../lib/errors.ts';
import { createFairGate } from '../../lib/fair-gate.ts';
import { presentDecode, type WorkerDecode } from './vin-mapping.ts';

/**
 * The VIN decoder (decision 033): a child process holding the vPIC data (vin-worker.mjs), started
 * by the first decode and ended after `idleMs` without one, so a server that never decodes pays
 * nothing, one that stopped decoding gets all of that memory back (a worker thread's stayed in
 * the server's allocator: 200 MB more after it ended), and a decode (a few hundred milliseconds
 * of SQLite) never blocks the event loop. Answers are kept in memory, most recently used first (a
 * VIN always decodes the same). The process decodes one VIN at a time; the decodes waiting for it
 * take turns between the people who asked (issue 45), each person with a few waiting at most, so
 * that one person, or a few, cannot fill the queue and leave everyone else "busy".
 */
export interface VinDecoder {
  /**
   * What `vin` (well formed: 17 characters, no I, O or Q) decodes as; null when it cannot be.
   * `who` takes turns with the others waiting: a person (`user:<id>`), or the VIN decoding job.
   * Refused with VinDecodeRefused when `who` has enough waiting already, or all places are taken.
   */
  decode(vin: string, who: string): Promise<VinDecode | null>;
  /** The answer kept for `vin`: undefined when there is none (a decode would be needed). */
  cached(vin: string): VinDecode | null | undefined;
  /** For the measurements of decision 033: the decoder's process while up, its last timings. */
  readonly state: { pid?: number; loadMs?: number; decodeMs?: number };
  /** Ends the decoder's process; a decode after it starts one again. */
  close(): Promise<void>;
}

export interface VinDecoderOptions {
  log: FastifyBaseLogger;
  /** How long the decoder's process stays up after its last decode. */
  idleMs: number;
  /**
   * How long a decode may take, the data's loading included; past it, 503 and a new process. A
   * decode also waits for its turn no longer than this; past it, 503 busy.
   */
  timeoutMs?: number;
  /** Answers kept in memory. */
  cacheSize?: number;
  /** Decodes waiting at most (the one decoding aside); past it, 503 busy. */
  maxWaiting?: number;
  /** Decodes one person may have waiting at once; past it, 429. */
  maxWaitingEach?: number;
}

const WORKER = fileURLToPath(new URL('./vin-worker.mjs', import.meta.url));
/** The decoder's process's niceness (0 the server's, 19 the lowest): it runs when the cores are free. */
const DECODER_NICENESS = 10;
const BUSY_MESSAGE = 'VIN decoding is busy for a moment. Please try again shortly.';

/**
 * A decode refused before it was queued: every place taken or waited out (503 busy), or the
 * person has their share waiting already (429). It counts against the person's minute: a
 * refusal retried at once must not be free (issue 45).
 */
export class VinDecodeRefused extends AppError {}

/**
 * The decoder's process answered that this VIN failed (others may decode): still 503 over HTTP,
 * but the VIN decoding job marks the car and goes on, where busy or timed out ends its run.
 */
export class VinDecodeFailed extends AppError {
  constructor() {
    super(503, 'unavailable', 'VIN decoding failed. Please try again shortly.', {
      retryAfterSeconds: 5,
    });
  }
}

type Pending = {
  resolve: (decoded: VinDecode | null) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
  vin: string;
};

/** What the decoder's process sends: that it loaded, or one VIN's answer (or failure). */
type WorkerMessage = { ready?: true; loadMs?: number; id?: number } & Partial<WorkerDecode> & {
    decodeMs?: number;
    error?: string;
  };

export function createVinDecoder({
  log,
  idleMs,
  timeoutMs = 20_000,
  cacheSize = 2000,
  maxWaiting = 50,
  maxWaitingEach = 2,
}: VinDecoderOptions): VinDecoder {
  const cache = new Map<string, VinDecode | null>();
  const inFlight = new Map<string, Promise<VinDecode | null>>();
  const pending = new Map<number, Pending>();
  const state: VinDecoder['state'] = {};
  let worker: ChildProcess | null = null;
  let idleTimer: NodeJS.Timeout | undefined;
  let nextId = 1;
  /** One decode in the process at a time; a freed turn goes to the person with fewest decoded. */
  const gate = createFairGate(1);
  /** Decodes waiting for their turn, in all and per person. */
  let waiting = 0;
  const waitingOf = new Map<string, number>();
  /** Raised by close(): decodes that waited through it are refused, not sent to a new process. */
  let closings = 0;

  const unavailable = (message = BUSY_MESSAGE) =>
    new AppError(503, 'unavailable', message, { retryAfterSeconds: 5 });
  const busy = () =>
    new VinDecodeRefused(503, 'unavailable', BUSY_MESSAGE, { retryAfterSeconds: 5 });

  /** Ends the decoder's process and fails what waits on it. */
  const stop = (error?: Error): Promise<void> => {
    clearTimeout(idleTimer);
    const ending = worker;
    worker = null;
    delete state.pid;
    for (const [id, waiting] of pending) {
      clearTimeout(waiting.timer);
      waiting.reject(error ?? unavailable());
      pending.delete(id);
    }
    if (!ending || ending.exitCode !== null || ending.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      ending.once('exit', () => resolve());
      // Held while it ends: a server closing waits for it, rather than Node leaving mid-close.
      ending.ref();
      ending.kill('SIGKILL');
    });
  };

  /** The channel keeps the event loop alive only while a decode waits on it. */
  const holdOpen = (hold: boolean) => {
    if (hold) worker?.channel?.ref();
    else worker?.channel?.unref();
  };

  /** When no decode waits any more: let go of the event loop, and end the process when idle. */
  const settled = () => {
    if (pending.size > 0) return;
    holdOpen(false);
    clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void stop(), idleMs).unref();
  };

  const start = () => {
    // Plain Node, without the test runner's or tsx's loaders: the file is JavaScript.
    const thread = fork(WORKER, [], {
      execArgv: [],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    thread.unref();
    // Below the server's priority: a decode (300-600 ms of a core) gives way to requests and to
    // the database on a machine of few cores (decision 046, bench:abuse's VIN flood).
    if (thread.pid !== undefined) {
      try {
        os.setPriority(thread.pid, DECODER_NICENESS);
      } catch {
        // not allowed here (some containers): it runs at the server's priority
      }
    }
    thread.on('message', (message: WorkerMessage) => {
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
        waiting.reject(new VinDecodeFailed());
      } else {
        state.decodeMs = message.decodeMs;
        const answer = { vehicle: message.vehicle ?? null, errors: message.errors ?? [] };
        waiting.resolve(presentDecode(waiting.vin, answer));
      }
      settled();
    });
    thread.on('error', (error) => {
      log.error({ err: error }, 'the VIN decoder process failed');
      if (worker === thread) void stop();
    });
    thread.on('exit', () => {
      if (worker === thread) void stop();
    });
    worker = thread;
    state.pid = thread.pid;
    return thread;
  };

  const remember = (vin: string, decoded: VinDecode | null) => {
    cache.delete(vin);
    cache.set(vin, decoded);
    if (cache.size > cacheSize) cache.delete(cache.keys().next().value!);
  };

  const ask = (vin: string) =>
    new Promise<VinDecode | null>((resolve, reject) => {
      clearTimeout(idleTimer);
      const thread = worker ?? start();
      const id = nextId++;
      const timer = setTimeout(() => {
        // Stuck, or the machine is swamped: a new process serves the next decode.
        log.warn({ vin, timeoutMs }, 'VIN decoding timed out');
        void stop();
      }, timeoutMs);
      pending.set(id, { resolve, reject, timer, vin });
      holdOpen(true);
      /** The VIN never reached the process: its timer must not end the process later. */
      const notSent = (error: Error) => {
        if (pending.get(id)?.timer !== timer) return;
        clearTimeout(timer);
        pending.delete(id);
        log.warn({ vin, err: error }, 'could not send a VIN to its decoder');
        reject(unavailable());
        settled();
      };
      try {
        // A channel closed meanwhile answers through the callback; a message it cannot take throws.
        thread.send({ id, vin }, (error) => error && notSent(error));
      } catch (error) {
        notSent(error instanceof Error ? error : new Error(String(error)));
      }
    });

  const countWaiting = (who: string, by: 1 | -1) => {
    waiting += by;
    const mine = (waitingOf.get(who) ?? 0) + by;
    if (mine > 0) waitingOf.set(who, mine);
    else waitingOf.delete(who);
  };

  /** Waits for `who`'s turn, then decodes `vin` in the process. */
  const decodeInTurn = async (vin: string, who: string): Promise<VinDecode | null> => {
    const closing = closings;
    countWaiting(who, 1);
    let leave: (() => void) | null;
    try {
      leave = await gate.enter(who, timeoutMs);
    } finally {
      countWaiting(who, -1);
    }
    if (!leave) throw busy();
    try {
      if (closings !== closing) throw unavailable('The server is closing.');
      return await ask(vin);
    } finally {
      leave();
    }
  };

  return {
    state,
    cached(vin) {
      const decoded = cache.get(vin);
      if (decoded !== undefined) remember(vin, decoded);
      return decoded;
    },
    decode(vin, who) {
      const kept = this.cached(vin);
      if (kept !== undefined) return Promise.resolve(kept);
      let decoding = inFlight.get(vin);
      if (!decoding) {
        const mine = waitingOf.get(who) ?? 0;
        if (mine >= maxWaitingEach) {
          return Promise.reject(
            new VinDecodeRefused(
              429,
              'too-many-requests',
              `You have ${mine === 1 ? 'a VIN decode' : `${mine} VIN decodes`} waiting already. Wait for one to finish, then try again.`,
              { retryAfterSeconds: 2 },
            ),
          );
        }
        if (waiting >= maxWaiting) return Promise.reject(busy());
        decoding = decodeInTurn(vin, who)
          .then((decoded) => {
            remember(vin, decoded);
            return decoded;
          })
          .finally(() => inFlight.delete(vin));
        inFlight.set(vin, decoding);
      }
      return decoding;
    },
    close: () => {
      closings += 1;
      return stop(unavailable('The server is closing.'));
    },
  };
}
