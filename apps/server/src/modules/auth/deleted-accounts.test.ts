import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, user } from '../../db/schema.ts';
import { mailsTo, waitForMail } from '../../test/mail.ts';
import { codeOf, errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('deleted accounts', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  const DAY_MS = 24 * 60 * 60 * 1000;
  const today = () => Math.floor(Date.now() / DAY_MS) * DAY_MS;
  const longDate = (time: number) =>
    new Date(time).toLocaleDateString('en-GB', {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      timeZone: 'UTC',
    });

  /** Registers someone and deletes them as an admin does, `deletedAt` moved to the given time. */
  async function deletedPerson(deletedAt: number) {
    const person = await register(app);
    const [row] = await app.database.db
      .select({ id: user.id })
      .from(user)
      .where(eq(user.email, person.account.email));
    const admin = await signInAs(app, 'admin@demo.local');
    const removed = await admin.request(`/api/user/remove/${row!.id}`, { method: 'DELETE' });
    expect(removed.status).toBe(200);
    await app.database.db
      .update(user)
      .set({ deletedAt: new Date(deletedAt) })
      .where(eq(user.id, row!.id));
    return { ...person.account, id: row!.id };
  }

  const signUp = (email: string) =>
    new TestClient(app).post('/api/auth/sign-up/email', {
      name: 'New Owner',
      email,
      password: 'a brand new password',
    });
  const signIn = (email: string, password: string) =>
    new TestClient(app).post('/api/auth/sign-in/email', { email, password });

  it('mails a deleted account no reset link, and answers as for any address', async () => {
    const gone = await deletedPerson(Date.now());
    const known = await register(app);
    const ask = (email: string) =>
      new TestClient(app).post('/api/auth/request-password-reset', {
        email,
        redirectTo: '/reset-password',
      });
    const deletedAnswer = await ask(gone.email);
    // The live account asks last: its mail is sent after any the deleted one's would have been.
    const knownAnswer = await ask(known.account.email);
    expect(deletedAnswer.status).toBe(200);
    expect(await deletedAnswer.json()).toEqual(await knownAnswer.json());
    await waitForMail(app, known.account.email, /reset/i);
    expect((await mailsTo(app, gone.email)).filter((mail) => /reset/i.test(mail.subject))).toEqual(
      [],
    );
  });

  it('holds the address for 30 days, and registering and signing in both say until when (rough edge 13)', async () => {
    // Deleted yesterday at 10:00 (UTC): free from the start of the day 30 days after today.
    const gone = await deletedPerson(today() - DAY_MS + 10 * 3600 * 1000);
    const deletedOn = longDate(today() - DAY_MS);
    const freeFrom = longDate(today() + 30 * DAY_MS);

    // The sign-up answers as a new one does (decision 044): the dates go only to the owner.
    const again = await signUp(gone.email.toUpperCase());
    expect(again.status).toBe(200);
    const answer = await again.text();
    expect(JSON.parse(answer)).toMatchObject({ user: { email: gone.email, name: 'New Owner' } });
    expect(answer).not.toContain(deletedOn);
    const mail = await waitForMail(app, gone.email, /^Someone tried to sign up/);
    expect(mail.text).toContain(
      `An account with this email was deleted on ${deletedOn}. The address can be used for a new account from ${freeFrom}.`,
    );
    expect(
      await app.database.db.select({ id: user.id }).from(user).where(eq(user.email, gone.email)),
    ).toEqual([{ id: gone.id }]);

    const signedIn = await signIn(gone.email, gone.password);
    expect(signedIn.status).toBe(403);
    expect(await errorOf(signedIn)).toMatchObject({
      code: 'user-disabled',
      message: `This account was deleted on ${deletedOn}. Its email address can be used for a new account from ${freeFrom}.`,
    });
    // A wrong password learns nothing about the account.
    expect(await codeOf(await signIn(gone.email, 'not the password'))).toBe('wrong-password');
  });

  it('frees the address after the hold: the old password no longer works and a new account can be made (rough edge 13)', async () => {
    const gone = await deletedPerson(today() - 31 * DAY_MS);

    const oldPassword = await signIn(gone.email, gone.password);
    expect(oldPassword.status).toBe(401);
    expect((await errorOf(oldPassword)).code).toBe('wrong-password');

    expect((await signUp(gone.email)).status).toBe(200);
    expect((await signIn(gone.email, 'a brand new password')).status).toBe(200);
    // The deleted account stays for the records, under an address nobody can have.
    const [old] = await app.database.db
      .select({ email: user.email, deletedAt: user.deletedAt })
      .from(user)
      .where(eq(user.id, gone.id));
    expect(old).toEqual({
      email: `deleted-${gone.id}@deleted.invalid`,
      deletedAt: expect.any(Date),
    });
    const logins = await app.database.db.select().from(account).where(eq(account.userId, gone.id));
    expect(logins).toEqual([]);
  });

  it('frees every address whose hold is over once an hour, and no other (rough edge 13)', async () => {
    const over = await deletedPerson(today() - 30 * DAY_MS);
    const held = await deletedPerson(today() - 29 * DAY_MS);
    expect(await app.releaseDeletedEmails()).toBeGreaterThanOrEqual(1);
    const emailOf = async (id: string) =>
      (await app.database.db.select({ email: user.email }).from(user).where(eq(user.id, id)))[0]
        ?.email;
    expect(await emailOf(over.id)).toBe(`deleted-${over.id}@deleted.invalid`);
    expect(await emailOf(held.id)).toBe(held.email);
    expect(await app.releaseDeletedEmails()).toBe(0);
  });
});
