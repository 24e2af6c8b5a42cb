import { eq, sql, type SQL } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConversationListSchema } from '@carmarket/shared';
import { queryRows, type Tx } from '../../db/client.ts';
import { listing, message, messageBlock } from '../../db/schema.ts';
import type { TestClient } from '../../test/client.ts';
import { errorOf, register, signInAs } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { env, freshCar, idOf, ask, send } from './messages.test-helpers.ts';

/**
 * Writes that meet a change committed while they wait for a conversation's row. PostgreSQL only:
 * PGlite runs one transaction at a time, so there nothing ever waits for a lock.
 */

describe.skipIf(!process.env.TEST_DATABASE_URL)('sending while the conversation changes', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({
      env: {
        ...env,
        MESSAGE_LIMIT_PER_MINUTE: '3',
        MESSAGE_LIMIT_PER_DAY: '1000',
        CONVERSATION_LIMIT_PER_DAY: '2',
      },
    });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  /** How many statements on this database wait for a lock. */
  const waitingForLocks = async () => {
    const [row] = await queryRows<{ n: number }>(
      app.database.db,
      sql`select count(*)::int as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`,
    );
    return row!.n;
  };

  /** Starts a request, and answers once it waits for a lock (`before` others wait already). */
  async function queued(before: number, request: () => Promise<Response>) {
    const answer = request();
    answer.catch(() => undefined);
    await expect.poll(waitingForLocks, { timeout: 5000 }).toBe(before + 1);
    return { answer };
  }

  /** A conversation's row, as every change to it takes it first. */
  const conversationRow = (id: string) =>
    sql`select 1 from conversation where id = ${id} for update`;

  /**
   * Takes a lock (`lock`, a statement) while `meanwhile` queues requests behind it; then runs
   * `change` in the same transaction and commits.
   */
  async function holding<T>(
    lock: SQL,
    meanwhile: () => Promise<T>,
    change: (tx: Tx) => Promise<void> = async () => {},
  ): Promise<T> {
    let held!: () => void;
    const isHeld = new Promise<void>((resolve) => (held = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const holder = app.database.db.transaction(async (tx) => {
      await tx.execute(lock);
      held();
      await released;
      await change(tx);
    });
    await isHeld;
    try {
      return await meanwhile();
    } finally {
      release();
      await holder;
    }
  }

  const textsOf = async (id: string) =>
    (
      await app.database.db
        .select({ body: message.body })
        .from(message)
        .where(eq(message.conversationId, id))
        .orderBy(message.seq)
    ).map((row) => row.body);

  it('refuses a message that waited for the conversation while the seller blocked the buyer, and counts it against no limit', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app), 'First');
    // The block takes the row first; the message queues behind it, after its own checks passed.
    const { block, sent } = await holding(conversationRow(id), async () => {
      const block = await queued(0, () =>
        seller.request(`/api/conversations/${id}/block`, { method: 'PUT' }),
      );
      const sent = await queued(1, () => send(buyer, id, 'Sent while blocked'));
      return { block: block.answer, sent: sent.answer };
    });
    expect((await block).status).toBe(200);
    const refused = await sent;
    expect(refused.status).toBe(403);
    expect((await errorOf(refused)).message).toBe(
      'The seller has blocked you, so you cannot send them messages.',
    );
    expect(await textsOf(id)).toEqual(['First']);

    // Refused, it counted against nothing: two more fit in the minute's three.
    await seller.request(`/api/conversations/${id}/block`, { method: 'DELETE' });
    expect((await send(buyer, id, 'Second')).status).toBe(200);
    expect((await send(buyer, id, 'Third')).status).toBe(200);
    expect((await send(buyer, id, 'Fourth')).status).toBe(429);
  });

  it('refuses a message that waited for the conversation while its car was sold', async () => {
    const buyer = await register(app);
    const car = await freshCar(app);
    const { conversationId: id } = await ask(buyer, car, 'First');
    // In an object: an async function returning the pending answer itself would wait for it,
    // and so never release the lock the answer waits for.
    const { sent } = await holding(
      conversationRow(id),
      async () => ({
        sent: (await queued(0, () => send(buyer, id, 'Sent after the sale'))).answer,
      }),
      async (tx) => {
        await tx.update(listing).set({ status: 'sold' }).where(eq(listing.id, car));
      },
    );
    expect((await sent).status).toBe(409);
    expect(await textsOf(id)).toEqual(['First']);
  });

  it('refuses a first message about another car while the seller blocks the buyer, and counts it against no limit', async () => {
    const buyer = await register(app);
    const { conversationId: first } = await ask(buyer, await freshCar(app), 'First');
    const other = await freshCar(app);
    // As setBlocked does: the seller's conversations with the buyer, then the block.
    const { asked } = await holding(
      conversationRow(first),
      async () => ({
        asked: (
          await queued(0, () =>
            buyer.post(`/api/listings/${other}/messages`, { body: 'About another car' }),
          )
        ).answer,
      }),
      async (tx) => {
        await tx.insert(messageBlock).values({
          sellerId: await idOf(app, seller),
          buyerId: await idOf(app, buyer),
        });
      },
    );
    expect((await asked).status).toBe(403);
    const mine = ConversationListSchema.parse(await (await buyer.get('/api/conversations')).json());
    expect(mine.items.map((c) => c._id)).toEqual([first]);

    // Refused, it started no conversation and counted against no limit: the second new car of
    // the day's two, and the minute's second and third messages, still fit.
    await seller.request(`/api/conversations/${first}/block`, { method: 'DELETE' });
    const { conversationId: second } = await ask(buyer, other, 'Now it can');
    expect((await send(buyer, second, 'And again')).status).toBe(200);
    expect((await send(buyer, second, 'One too many')).status).toBe(429);
  });

  it("deletes an account while two of the person's contacts write to each other, without a deadlock", async () => {
    const admin = await signInAs(app, 'admin@demo.local');
    const sellerId = await idOf(app, seller);
    // X sells a car and buys one: a contact of the person below, and in a conversation with the
    // demo seller, the person's other contact.
    const x = await register(app);
    const xId = await idOf(app, x);
    const xCar = await freshCar(app);
    await app.database.db.update(listing).set({ sellerId: xId }).where(eq(listing.id, xCar));
    const { conversationId: between } = await ask(x, await freshCar(app), 'From one contact');
    const higher = [sellerId, xId].sort()[1]!;
    // A person whose conversation with the higher contact has the lower id, so that taking
    // counters in conversation order would take the higher one first.
    let person: Awaited<ReturnType<typeof register>>;
    for (;;) {
      person = await register(app);
      const withSeller = (await ask(person, await freshCar(app), 'Hello')).conversationId;
      const withX = (await ask(person, xCar, 'Hello')).conversationId;
      const [toHigher, toLower] = higher === xId ? [withX, withSeller] : [withSeller, withX];
      if (toHigher < toLower) break;
    }
    const personId = await idOf(app, person);

    // The higher contact's counter is held while the deletion, then a message between the two
    // contacts, queue for the counters; then both go ahead.
    const { deletion, reply } = await holding(
      sql`select 1 from conversation_event_counter where user_id = ${higher} for update`,
      async () => {
        const deletion = await queued(0, () =>
          admin.request(`/api/user/remove/${personId}`, { method: 'DELETE' }),
        );
        const reply = await queued(1, () => send(seller, between, 'To the other contact'));
        return { deletion: deletion.answer, reply: reply.answer };
      },
    );
    expect((await deletion).status).toBe(200);
    expect((await reply).status).toBe(200);
    expect(await textsOf(between)).toEqual(['From one contact', 'To the other contact']);
  });

  it('never stores a message of a blocked buyer after the block committed, however the two meet', async () => {
    for (let round = 0; round < 15; round += 1) {
      const buyer = await register(app);
      const { conversationId: id } = await ask(buyer, await freshCar(app), 'First');
      await Promise.all([
        seller.request(`/api/conversations/${id}/block`, { method: 'PUT' }),
        send(buyer, id, 'Racing one'),
        send(buyer, id, 'Racing two'),
      ]);
      // A person's event numbers follow the commits: none of the buyer's messages may come after
      // the block's event.
      const buyerId = await idOf(app, buyer);
      const late = await queryRows<{ body: string }>(
        app.database.db,
        sql`select m.body from conversation_event e join message m on m.id = e.message_id
            where e.user_id = ${buyerId} and m.sender_id = ${buyerId} and e.no > (
              select b.no from conversation_event b
              where b.user_id = ${buyerId} and b.conversation_id = ${id} and b.kind = 'conversation')`,
      );
      expect(late, `round ${round}`).toEqual([]);
    }
  });
});
