import { EventEmitter } from 'node:events';
import { PassThrough } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import { queryRows, type Db } from '../../db/client.ts';
import { AppError } from '../../lib/errors.ts';
import { eventsAfter, lastEventNo, type LiveEnvelope, type LiveEvent } from './live-events.ts';
import { presentLiveEvent } from './messages.presenter.ts';

/*
 * Live conversations (decision 015): Server-Sent Events, one stream per open tab. An event is
 * stored and numbered in its transaction (live-events.ts), then published on the bus: Redis
 * pub/sub when REDIS_URL is set, so that it reaches streams on every process; in-process
 * otherwise (one process). Each process keeps only its own streams, by person, and writes to
 * them what the bus brings. The database, not the bus, is the record: a stream that reconnects
 * with Last-Event-ID, or sees a number skipped, reads what it missed from there.
 */

/** Carries events between the processes. */
export interface LiveBus {
  publish(envelope: LiveEnvelope): Promise<void>;
  /** Called with every envelope published by any process (this one included). */
  onEnvelope(handler: (envelope: LiveEnvelope) => void): void;
  /** Called when the bus was cut off and is back: events published meanwhile were lost to it. */
  onResumed(handler: () => void): void;
  close(): Promise<void>;
}

const CHANNEL = 'carmarket:live';

/** One process: events go straight from the publisher to this process's streams. */
export function createMemoryBus(): LiveBus {
  const emitter = new EventEmitter();
  emitter.setMaxListeners(0);
  return {
    async publish(envelope) {
      // Asynchronous, as Redis is: a handler never runs inside the publisher's call.
      setImmediate(() => emitter.emit('envelope', envelope));
    },
    onEnvelope: (handler) => void emitter.on('envelope', handler),
    onResumed: () => {},
    async close() {
      emitter.removeAllListeners();
    },
  };
}

/**
 * Redis pub/sub: one connection publishes, one listens. A listener that reconnects after an
 * outage tells the hub, which has every stream read what it missed from the database.
 */
export function createRedisBus(url: string, log: FastifyBaseLogger): LiveBus {
  const options = { maxRetriesPerRequest: 1, connectTimeout: 2000, commandTimeout: 2000 };
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, { ...options, commandTimeout: undefined });
  const envelopeHandlers: Array<(envelope: LiveEnvelope) => void> = [];
  const resumedHandlers: Array<() => void> = [];
  let down = false;
  let subscribedOnce = false;
  for (const [name, connection] of [
    ['publisher', publisher],
    ['subscriber', subscriber],
  ] as const) {
    connection.on('error', (error) => {
      // Once per outage, not once per reconnection attempt.
      if (!down)
        log.error({ err: error, connection: name }, 'Redis does not answer: live events wait');
      down = true;
    });
  }
  subscriber.on('ready', () => {
    down = false;
    // ioredis subscribes again by itself after a reconnection; the first time is ours.
    if (subscribedOnce) for (const handler of resumedHandlers) handler();
  });
  subscriber.on('message', (_channel: string, text: string) => {
    let envelope: LiveEnvelope;
    try {
      envelope = JSON.parse(text) as LiveEnvelope;
    } catch {
      return;
    }
    for (const handler of envelopeHandlers) handler(envelope);
  });
  const subscribed = subscriber.subscribe(CHANNEL).then(() => {
    subscribedOnce = true;
  });
  subscribed.catch((error: unknown) =>
    log.error({ err: error }, 'could not listen for live events'),
  );
  return {
    async publish(envelope) {
      await subscribed.catch(() => undefined);
      await publisher.publish(CHANNEL, JSON.stringify(envelope));
    },
    onEnvelope: (handler) => void envelopeHandlers.push(handler),
    onResumed: (handler) => void resumedHandlers.push(handler),
    async close() {
      await Promise.all(
        [publisher, subscriber].map((connection) =>
          connection.quit().catch(() => connection.disconnect()),
        ),
      );
    },
  };
}

/** How many missed events a stream replays; past that it is told to load its lists again. */
const REPLAY_LIMIT = 500;
/** Streams one person may keep open on one process (tabs); one more ends their oldest. */
const STREAMS_PER_PERSON = 10;
/** What a stream refused for the process's cap is told to wait (Retry-After) before asking again. */
const BUSY_RETRY_SECONDS = 60;
/**
 * The reconnection delay given to a stream ended for a newer tab. Our client stops on
 * `superseded` until its tab is shown again; a client that does not still waits this long, so
 * tabs do not take turns ending each other every two seconds.
 */
const SUPERSEDED_RETRY_MS = 10 * 60_000;
/** A client that reads nothing while this much waits for it is cut off (it will resume). */
const MAX_BUFFERED_BYTES = 1 << 20;
/** How often open streams check that their session still exists (sign-out, deletion). */
const SESSION_CHECK_MS = 60_000;

export interface LiveOptions {
  db: Db;
  bus: LiveBus;
  log: FastifyBaseLogger;
  heartbeatMs: number;
  /** Streams this process keeps open at most, everyone's together; past it, 503. */
  maxStreams: number;
  /** Streams this process keeps open at most for one client address; past it, 503. */
  maxStreamsPerIp: number;
}

export interface StreamOwner {
  userId: string;
  sessionId: string;
  /** The client's address (request.ip): one client must not take every slot. */
  ip: string;
}

/** One open stream: its person, what it has been sent, and its socket. */
class LiveStream {
  /** The last event number sent; null until the stream has caught up at start. */
  lastNo: number | null = null;
  private pending: LiveEvent[] = [];
  private work: Promise<void> = Promise.resolve();
  ended = false;

  constructor(
    readonly owner: StreamOwner,
    readonly body: PassThrough,
    private readonly hub: LiveHub,
  ) {}

  write(text: string): void {
    if (this.ended || this.body.destroyed) return;
    this.body.write(text);
    if (this.body.writableLength > MAX_BUFFERED_BYTES) this.end();
  }

  send(name: string, no: number | null, data: unknown): void {
    const id = no === null ? '' : `id: ${no}\n`;
    this.write(`${id}event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /**
   * Ends the stream for a newer one of the same person (past STREAMS_PER_PERSON): told why, and
   * not to come straight back, which would end the next oldest in turn.
   */
  supersede(): void {
    this.write(`retry: ${SUPERSEDED_RETRY_MS}\n\n`);
    this.send('superseded', null, {});
    this.end();
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.body.end();
    this.hub.detach(this);
  }

  /** Resolves when the stream's work queued so far is done (it never rejects). */
  idle(): Promise<void> {
    return this.work;
  }

  /** Runs stream work one piece at a time, in order. */
  queue(piece: () => Promise<void>): void {
    this.work = this.work.then(piece).catch((error: unknown) => {
      this.hub.log.warn({ err: error }, 'a live stream failed; it ends, and its client resumes');
      this.end();
    });
  }

  /** An event for this stream's person, from the bus. */
  offer(event: LiveEvent): void {
    if (this.lastNo === null) {
      this.pending.push(event);
      return;
    }
    this.queue(() => this.deliver(event));
  }

  private async deliver(event: LiveEvent): Promise<void> {
    const no = numberFor(event, this.owner.userId);
    if (this.ended || no === undefined || this.lastNo === null || no <= this.lastNo) return;
    // A number skipped: it committed before this one, so the database has it (and this one).
    if (no > this.lastNo + 1) await this.catchUp();
    if (this.lastNo === null || no <= this.lastNo) return;
    // Still a gap: what was missed cannot be told, so the client loads its lists again.
    if (no !== this.lastNo + 1) return this.reset();
    this.emit(event, no);
  }

  private emit(event: LiveEvent, no: number): void {
    this.send(event.kind, no, presentLiveEvent(event, this.owner.userId));
    this.lastNo = no;
  }

  /** Sends what the database holds after the last event sent; a reset when it cannot. */
  async catchUp(): Promise<void> {
    if (this.lastNo === null || this.ended) return;
    const missed = await eventsAfter(this.hub.db, this.owner.userId, this.lastNo, REPLAY_LIMIT);
    if (missed.length === 0) return;
    const first = numberFor(missed[0]!, this.owner.userId)!;
    if (first !== this.lastNo + 1 || missed.length === REPLAY_LIMIT) {
      await this.reset();
      return;
    }
    for (const event of missed) this.emit(event, numberFor(event, this.owner.userId)!);
  }

  private async reset(): Promise<void> {
    const current = await lastEventNo(this.hub.db, this.owner.userId);
    this.send('reset', current, {});
    this.lastNo = current;
  }

  /**
   * Starts the stream: replays what came after `lastEventId` (or starts from now), says it is
   * ready, then sends what the bus brought meanwhile.
   */
  async start(lastEventId: number | undefined): Promise<void> {
    const current = await lastEventNo(this.hub.db, this.owner.userId);
    let resumed = false;
    if (lastEventId === undefined) {
      this.lastNo = current;
    } else if (lastEventId > current) {
      // Not a number this person was given (another account's, or a database restored).
      this.lastNo = current;
    } else {
      this.lastNo = lastEventId;
      await this.catchUp();
      resumed = true;
    }
    this.send('ready', this.lastNo, { resumed });
    const waiting = this.pending;
    this.pending = [];
    for (const event of waiting) await this.deliver(event);
  }
}

const numberFor = (event: LiveEvent, userId: string) =>
  event.to.find((recipient) => recipient.userId === userId)?.no;

/** This process's open streams, by person, fed by the bus. */
export class LiveHub {
  private readonly streams = new Map<string, Set<LiveStream>>();
  private count = 0;
  private readonly maxStreams: number;
  /** Open streams by client address. */
  private readonly byIp = new Map<string, number>();
  private readonly maxStreamsPerIp: number;
  private readonly heartbeat: NodeJS.Timeout;
  private readonly sessionCheck: NodeJS.Timeout;
  private closed = false;
  /** The session check under way, if any. */
  private checking: Promise<void> | undefined;
  /** Work that reads the database, under way when the hub closed: awaited before the pool ends. */
  private readonly draining: Promise<void>[] = [];
  readonly db: Db;
  readonly log: FastifyBaseLogger;
  private readonly bus: LiveBus;

  constructor(options: LiveOptions) {
    this.db = options.db;
    this.log = options.log;
    this.bus = options.bus;
    this.maxStreams = options.maxStreams;
    this.maxStreamsPerIp = options.maxStreamsPerIp;
    this.bus.onEnvelope((envelope) => this.receive(envelope));
    this.bus.onResumed(() => {
      for (const stream of this.all()) stream.queue(() => stream.catchUp());
    });
    // One timer for every stream: a comment line keeps proxies from closing an idle stream.
    this.heartbeat = setInterval(() => {
      for (const stream of this.all()) stream.write(': ping\n\n');
    }, options.heartbeatMs);
    this.heartbeat.unref();
    this.sessionCheck = setInterval(() => {
      if (this.checking) return;
      this.checking = this.endSignedOut()
        .catch((error: unknown) =>
          this.log.warn({ err: error }, 'checking the sessions of live streams failed'),
        )
        .finally(() => {
          this.checking = undefined;
        });
    }, SESSION_CHECK_MS);
    this.sessionCheck.unref();
  }

  /** Publishes after a commit; a failure is logged, never the caller's: the message is stored. */
  publish(envelope: LiveEnvelope): void {
    this.bus
      .publish(envelope)
      .catch((error: unknown) =>
        this.log.warn({ err: error }, 'a live event was not published; streams read it later'),
      );
  }

  /** Ends a person's streams on every process (their account was deleted). */
  endStreamsOf(userId: string): void {
    this.publish({ type: 'end', userId });
  }

  /**
   * Ends, on every process, the person's streams whose session is gone: for the sign-in code to
   * call once a session was revoked, or others were with a password change, rather than leave
   * them to the check a minute.
   */
  endRevokedStreamsOf(userId: string): void {
    this.publish({ type: 'sessions', userId });
  }

  private receive(envelope: LiveEnvelope): void {
    if (envelope.type === 'end') {
      for (const stream of [...(this.streams.get(envelope.userId) ?? [])]) stream.end();
      return;
    }
    if (envelope.type === 'sessions') {
      this.endSignedOut([...(this.streams.get(envelope.userId) ?? [])]).catch((error: unknown) =>
        this.log.warn({ err: error }, 'checking the sessions of live streams failed'),
      );
      return;
    }
    for (const { userId } of envelope.to) {
      for (const stream of this.streams.get(userId) ?? []) stream.offer(envelope);
    }
  }

  private *all(): Iterable<LiveStream> {
    for (const set of this.streams.values()) yield* set;
  }

  /** Open streams on this process. */
  get size(): number {
    return this.count;
  }

  /**
   * Opens a stream for a signed-in person: answers the body to send as the response. It is
   * registered before it reads the database, so nothing published meanwhile is lost.
   */
  open(owner: StreamOwner, lastEventId: number | undefined) {
    const body = new PassThrough();
    if (this.closed) {
      body.end();
      return body;
    }
    let mine = this.streams.get(owner.userId);
    // An 11th tab ends the person's oldest stream (a Set keeps the order streams were added),
    // which frees its place here as well.
    const oldest =
      (mine?.size ?? 0) >= STREAMS_PER_PERSON ? mine!.values().next().value : undefined;
    if (!oldest && this.count >= this.maxStreams) {
      throw new AppError(
        503,
        'unavailable',
        'Live updates are busy on this server. They resume by themselves in a moment.',
        { retryAfterSeconds: BUSY_RETRY_SECONDS },
      );
    }
    // The oldest stream ending for this one frees a place of its address.
    const fromIp = (this.byIp.get(owner.ip) ?? 0) - (oldest?.owner.ip === owner.ip ? 1 : 0);
    if (fromIp >= this.maxStreamsPerIp) {
      throw new AppError(
        503,
        'unavailable',
        'Too many live updates are open from your network. They resume by themselves in a moment.',
        { retryAfterSeconds: BUSY_RETRY_SECONDS },
      );
    }
    oldest?.supersede();
    const stream = new LiveStream(owner, body, this);
    // However the response ends (the client went, before or after this ran; an error; the
    // stream's own end), Fastify destroys or ends the body: the stream goes with it.
    body.once('close', () => stream.end());
    body.on('error', () => stream.end());
    if (!(mine = this.streams.get(owner.userId)))
      this.streams.set(owner.userId, (mine = new Set()));
    mine.add(stream);
    this.count += 1;
    this.byIp.set(owner.ip, (this.byIp.get(owner.ip) ?? 0) + 1);
    // The client may wait this long before reconnecting; then it sends Last-Event-ID.
    body.write('retry: 2000\n\n');
    stream.queue(() => stream.start(lastEventId));
    return body;
  }

  detach(stream: LiveStream): void {
    const mine = this.streams.get(stream.owner.userId);
    if (!mine?.delete(stream)) return;
    this.count -= 1;
    const fromIp = this.byIp.get(stream.owner.ip)! - 1;
    if (fromIp === 0) this.byIp.delete(stream.owner.ip);
    else this.byIp.set(stream.owner.ip, fromIp);
    if (mine.size === 0) this.streams.delete(stream.owner.userId);
  }

  /** Ends streams (all of them, or those given) whose session is gone: signed out, expired, revoked, account deleted. */
  async endSignedOut(streams: LiveStream[] = [...this.all()]): Promise<void> {
    const sessions = [...new Set(streams.map((stream) => stream.owner.sessionId))];
    if (sessions.length === 0) return;
    const live = await queryRows<{ id: string }>(
      this.db,
      sql`select s.id from session s join "user" u on u.id = s.user_id
          where s.id = any(${`{${sessions.join(',')}}`}::uuid[])
            and s.expires_at > now() and u.deleted_at is null`,
    );
    const alive = new Set(live.map((row) => row.id));
    for (const stream of streams) if (!alive.has(stream.owner.sessionId)) stream.end();
  }

  /** Ends every stream (the server is closing: open streams would hold it open). */
  endAll(): void {
    this.closed = true;
    clearInterval(this.heartbeat);
    clearInterval(this.sessionCheck);
    if (this.checking) this.draining.push(this.checking);
    for (const stream of [...this.all()]) {
      this.draining.push(stream.idle());
      stream.end();
    }
  }

  /** Ends every stream and waits for their database work (decision 022), then leaves the bus. */
  async close(): Promise<void> {
    this.endAll();
    await Promise.all(this.draining);
    await this.bus.close();
  }
}
