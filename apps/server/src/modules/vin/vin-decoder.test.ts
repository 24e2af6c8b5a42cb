import type * as childProcess from 'node:child_process';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { vinCheckDigit } from '@carmarket/shared';
import { errorOf, register } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { createVinDecoder, VinDecodeFailed } from './vin-decoder.ts';

/*
 * The VIN decoder's bookkeeping of its process (decision 033), against a stand-in process: what a
 * decode that never reached the process leaves behind, a VIN the process answers failed, and how
 * people share the decodes waiting for it (issue 45), through HTTP. The real process is in
 * vin.test.ts.
 */

const TIMEOUT_MS = 20_000;
/** How long to wait for answers over HTTP on a busy machine (vi.waitFor's own default is 1 s). */
const WAIT = { timeout: 10_000, interval: 20 };

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

vi.mock('node:child_process', async (original) => ({
  ...(await original<typeof childProcess>()),
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
    const first = decoder.decode('1HGCM82633A004352', 'user:1');
    await expect(first).rejects.toMatchObject({ statusCode: 503 });

    // Half a timeout later, another VIN; then past the first one's timeout, before its own.
    await vi.advanceTimersByTimeAsync(TIMEOUT_MS / 2);
    const second = decoder.decode('5YJ3E1EA2KF317000', 'user:1');
    await vi.advanceTimersByTimeAsync(0);
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
    const decoding = decoder.decode('1HGCM82633A004352', 'user:1');
    await vi.advanceTimersByTimeAsync(0);
    const worker = fake.processes[0]!;
    worker.emit('message', { id: worker.sent[0]!.id, error: 'no such table' });
    await expect(decoding).rejects.toBeInstanceOf(VinDecodeFailed);
    await expect(decoding).rejects.toMatchObject({ statusCode: 503 });
    expect(worker.killed).toBe(false);
    await decoder.close();
  });

  it('gives the VIN decoding job its turns between a person’s decodes, and them theirs', async () => {
    const decoder = createVinDecoder({ log: quiet, idleMs: 60_000, timeoutMs: TIMEOUT_MS });
    // Three requests of one person, as they come in: one decoding, two waiting.
    const person = [];
    for (const serial of [1, 2, 3]) {
      person.push(decoder.decode(unknownMaker(serial), 'user:1'));
      await vi.advanceTimersByTimeAsync(0);
    }
    // The job decodes one car after another, as decodeWaitingCars does.
    const job = (async () => {
      for (const serial of [11, 12]) await decoder.decode(unknownMaker(serial), 'vin-decoding job');
    })();
    const order = [];
    for (let turn = 0; turn < 5; turn++) {
      await vi.advanceTimersByTimeAsync(0);
      const worker = fake.processes[0]!;
      const { id, vin } = worker.sent[turn]!;
      order.push(Number(vin.slice(12)) > 10 ? 'job' : 'person');
      worker.emit('message', unknownVin(id));
    }
    expect(order).toEqual(['person', 'job', 'person', 'job', 'person']);
    await Promise.all([...person, job]);
    await decoder.close();
  });
});

/** A well-formed VIN with a right check digit whose maker vPIC lacks (decodes as nothing: 404). */
function unknownMaker(serial: number): string {
  const vin = `111111111111${String(serial).padStart(5, '0')}`;
  return `${vin.slice(0, 8)}${vinCheckDigit(vin)}${vin.slice(9)}`;
}

describe('VIN decodes waiting, shared between people', () => {
  const PER_MINUTE = 5;
  let app: TestApp;
  beforeAll(async () => {
    fake.processes.length = 0;
    app = await startTestApp({
      env: {
        VIN_DECODES_PER_MINUTE: String(PER_MINUTE),
        VIN_DECODES_WAITING: '4',
        VIN_DECODES_WAITING_PER_PERSON: '2',
        VIN_DECODE_INTERVAL_SECONDS: '3600',
      },
    });
  });
  afterAll(() => app.close());

  /** The VINs the stand-in process was sent, and how many of them it has answered. */
  let answered = 0;
  const sent = () => fake.processes.flatMap((process) => process.sent);
  /** The process answers the next VIN sent to it, once it has one (it decodes one at a time). */
  async function answerNext(): Promise<string> {
    await vi.waitFor(() => expect(sent().length).toBeGreaterThan(answered), WAIT);
    const { id, vin } = sent()[answered++]!;
    fake.processes.at(-1)!.emit('message', unknownVin(id));
    return vin;
  }

  /** Sends a decode and keeps its answer's status once it comes. */
  function decoding(client: Awaited<ReturnType<typeof register>>, vin: string) {
    const request = { status: 0, response: client.get(`/api/vin/${vin}`) };
    void request.response.then((response) => (request.status = response.status));
    return request;
  }

  it('gives another person a place and turns however many one person sends; past their share, 429', async () => {
    const flooder = await register(app);
    const other = await register(app);
    const flooded = [20, 21, 22, 23, 24].map(unknownMaker);
    const flood = flooded.map((vin) => decoding(flooder, vin));
    // One decoding, two waiting: the other two are refused at once.
    await vi.waitFor(() => expect(flood.filter((r) => r.status === 429)).toHaveLength(2), WAIT);
    const refused = await flood.find((r) => r.status === 429)!.response;
    expect((await errorOf(refused)).message).toBe(
      'You have 2 VIN decodes waiting already. Wait for one to finish, then try again.',
    );

    // The other person finds places (two; a third is past their share, which says they wait).
    const theirs = [30, 31, 32].map((serial) => decoding(other, unknownMaker(serial)));
    await vi.waitFor(() => expect(theirs.filter((r) => r.status === 429)).toHaveLength(1), WAIT);
    // The flooder's two waited longer; the turns alternate all the same.
    const turns = [];
    for (let turn = 0; turn < 5; turn++) {
      turns.push(flooded.includes(await answerNext()) ? 'flooder' : 'other');
    }
    expect(turns).toEqual(['flooder', 'other', 'flooder', 'other', 'flooder']);
    for (const request of [...flood, ...theirs]) {
      expect([404, 429]).toContain((await request.response).status);
    }
    expect(theirs.filter((r) => r.status === 404)).toHaveLength(2);

    // Refused decodes counted: three decoded, five spent.
    const over = await flooder.get(`/api/vin/${unknownMaker(25)}`);
    expect(over.status).toBe(429);
    expect((await errorOf(over)).message).toMatch(`You can decode ${PER_MINUTE} VINs a minute`);
  });

  it('counts a decode refused as busy against the minute', async () => {
    const [first, second, late] = [await register(app), await register(app), await register(app)];
    // Each sends one past their share, so that a 429 shows the rest decoding or waiting: one
    // decoding and four waiting, every place taken.
    const firsts = [40, 41, 42, 43].map((serial) => decoding(first, unknownMaker(serial)));
    await vi.waitFor(() => expect(firsts.filter((r) => r.status === 429)).toHaveLength(1), WAIT);
    const seconds = [44, 45, 46].map((serial) => decoding(second, unknownMaker(serial)));
    await vi.waitFor(() => expect(seconds.filter((r) => r.status === 429)).toHaveLength(1), WAIT);
    for (let serial = 50; serial < 50 + PER_MINUTE; serial++) {
      const busy = await late.get(`/api/vin/${unknownMaker(serial)}`);
      expect(busy.status).toBe(503);
      expect((await errorOf(busy)).message).toMatch(/busy/);
    }
    // Retrying busy answers is not free: the minute is spent.
    const over = await late.get(`/api/vin/${unknownMaker(60)}`);
    expect(over.status).toBe(429);
    expect((await errorOf(over)).message).toMatch(`You can decode ${PER_MINUTE} VINs a minute`);

    for (let turn = 0; turn < 5; turn++) await answerNext();
    for (const request of [...firsts, ...seconds]) {
      expect([404, 429]).toContain((await request.response).status);
    }
  });
});
