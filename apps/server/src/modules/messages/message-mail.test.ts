import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { conversation } from '../../db/schema.ts';
import { readOutbox } from '../../adapters/mail.ts';
import { confirmAddress } from '../../test/mail.ts';
import type { TestClient } from '../../test/client.ts';
import { register, signInAs } from '../../test/client.ts';
import { validBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { startTwoServers } from '../../test/two-servers.ts';
import { env, freshCar, idOf, ask, send, conversationAs } from './messages.test-helpers.ts';

describe('"new message" mail', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp({ env: { ...env, MESSAGE_MAIL_DELAY_MINUTES: '5' } });
    seller = await signInAs(app, 'seller@demo.local');
  });
  afterAll(() => app.close());

  const mailAbout = async (to: string, car: string) =>
    (await readOutbox(app.outboxDir)).filter(
      (mail) => mail.to === to && mail.subject === `New message about ${car}`,
    );
  /** As if everything in the conversation had happened `minutes` earlier. */
  const age = (id: string, minutes: number) =>
    app.database.db.execute(sql`update conversation set
      last_message_at = last_message_at - make_interval(mins => ${minutes}),
      seller_unread_since = seller_unread_since - make_interval(mins => ${minutes}),
      buyer_unread_since = buyer_unread_since - make_interval(mins => ${minutes}),
      seller_mailed_at = seller_mailed_at - make_interval(mins => ${minutes}),
      buyer_mailed_at = buyer_mailed_at - make_interval(mins => ${minutes})
      where id = ${id}`);

  it('mails the other person about a message left unread for minutes, at most once an hour, with a link', async () => {
    const buyer = await register(app, { name: 'Mailing Buyer' });
    const { conversationId: id } = await ask(buyer, await freshCar(app, 'Mailed Mazda'), 'Hello?');
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Mailed Mazda')).toHaveLength(0);

    await age(id, 6);
    await Promise.all([app.runMessageMail(), app.runMessageMail()]);
    const [mail, ...more] = await mailAbout('seller@demo.local', 'Mailed Mazda');
    expect(more).toEqual([]);
    expect(mail!.text).toContain('Mailing Buyer sent you a message about the Mailed Mazda');
    expect(mail!.text).toMatch(new RegExp(`http://[^\\s]+/dashboard/messages/${id}`));
    // The buyer, who wrote it, is owed nothing.
    expect(await mailAbout(buyer.account.email, 'Mailed Mazda')).toHaveLength(0);

    // More messages within the hour: no second mail.
    await send(buyer, id, 'Are you there?');
    await age(id, 30);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Mailed Mazda')).toHaveLength(1);
    // An hour after the first, still unread: one more, counting both.
    await age(id, 31);
    await app.runMessageMail();
    const mails = await mailAbout('seller@demo.local', 'Mailed Mazda');
    expect(mails).toHaveLength(2);
    expect(mails[1]!.text).toContain('sent you 2 messages');
    // Nothing new since: no more mail, however long it waits.
    await age(id, 120);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Mailed Mazda')).toHaveLength(2);
  });

  it('gives a message written long after the last mail its own few minutes before mailing it', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app, 'Waiting Wartburg'));
    await age(id, 6);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Waiting Wartburg')).toHaveLength(1);

    // Two hours on, still unread, the buyer writes again: it waits its few minutes too.
    await age(id, 120);
    await send(buyer, id, 'Hello again?');
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Waiting Wartburg')).toHaveLength(1);
    await age(id, 6);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Waiting Wartburg')).toHaveLength(2);
  });

  it('mails nothing about a message read in time, nor about a booking line alone', async () => {
    const buyer = await register(app);
    const car = await freshCar(app, 'Read Renault');
    const { conversationId: id } = await ask(buyer, car, 'Quick question');
    await seller.post(`/api/conversations/${id}/read`);
    await age(id, 10);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Read Renault')).toHaveLength(0);

    await buyer.post('/api/category', validBooking(car));
    await age(id, 10);
    await app.runMessageMail();
    expect(await mailAbout('seller@demo.local', 'Read Renault')).toHaveLength(0);
    expect((await conversationAs(seller, id)).unread).toBe(1);
  });

  it('mails only a confirmed address, and nothing that waited before it was confirmed', async () => {
    const unconfirmed = await register(app);
    const confirmed = await register(app);
    await confirmAddress(app, confirmed);
    const ids = [];
    for (const [buyer, car] of [
      [unconfirmed, 'Unconfirmed Uno'],
      [confirmed, 'Confirmed Corsa'],
    ] as const) {
      const { conversationId: id } = await ask(buyer, await freshCar(app, car));
      await send(seller, id, 'It is still for sale.');
      await age(id, 10);
      ids.push(id);
    }
    await app.runMessageMail();
    expect(await mailAbout(confirmed.account.email, 'Confirmed Corsa')).toHaveLength(1);
    expect(await mailAbout(unconfirmed.account.email, 'Unconfirmed Uno')).toHaveLength(0);

    // Skipped, not kept: confirming sends nothing about the message that waited before.
    await confirmAddress(app, unconfirmed);
    await age(ids[0]!, 10);
    await app.runMessageMail();
    expect(await mailAbout(unconfirmed.account.email, 'Unconfirmed Uno')).toHaveLength(0);
    // The next message is mailed.
    await send(seller, ids[0]!, 'Anyone there?');
    await age(ids[0]!, 10);
    await app.runMessageMail();
    expect(await mailAbout(unconfirmed.account.email, 'Unconfirmed Uno')).toHaveLength(1);
  });

  it('mails no one whose account was deleted', async () => {
    const buyer = await register(app);
    const { conversationId: id } = await ask(buyer, await freshCar(app, 'Orphan Opel'));
    await send(seller, id, 'Answer');
    const admin = await signInAs(app, 'admin@demo.local');
    await admin.request(`/api/user/remove/${await idOf(app, buyer)}`, { method: 'DELETE' });
    await age(id, 10);
    await app.runMessageMail();
    expect(await mailAbout(buyer.account.email, 'Orphan Opel')).toHaveLength(0);
    const [row] = await app.database.db
      .select({ since: conversation.buyerUnreadSince })
      .from(conversation)
      .where(eq(conversation.id, id));
    expect(row!.since).toBeNull();
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  '"new message" mail from two server processes',
  () => {
    let first: TestApp;
    let second: TestApp;
    beforeAll(async () => {
      [first, second] = await startTwoServers({
        ...env,
        MESSAGE_MAIL_DELAY_MINUTES: '0',
        MESSAGE_LIMIT_PER_MINUTE: '1000',
      });
    });
    afterAll(async () => {
      await second.close();
      await first.close();
    });

    it('mails each waiting conversation once, with both workers running at once', async () => {
      const names: string[] = [];
      for (let i = 0; i < 6; i += 1) {
        const buyer = await register(i % 2 ? first : second);
        const name = `Twice Tested ${i} ${Date.now()}`;
        names.push(name);
        await ask(buyer, await freshCar(first, name), 'Still for sale?');
      }
      await Promise.all([
        first.runMessageMail(),
        second.runMessageMail(),
        first.runMessageMail(),
        second.runMessageMail(),
      ]);
      // Both servers write to the same data directory's outbox.
      const outbox = await readOutbox(first.outboxDir);
      for (const name of names) {
        expect(outbox.filter((mail) => mail.subject === `New message about ${name}`)).toHaveLength(
          1,
        );
      }
    });
  },
);
