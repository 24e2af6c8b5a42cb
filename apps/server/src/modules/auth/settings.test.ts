import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upload, user } from '../../db/schema.ts';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { linkIn, mailsTo, waitForMail } from '../../test/mail.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { bearerOf, whoIs } from './auth.test-helpers.ts';
import { jpegWithExif, uploadBytes, uploadPhoto } from '../../test/uploads.ts';
import { sweepUnusedUploads } from '../uploads/uploads.service.ts';

/** Opens a link from a mail as the browser of `client` would, without following redirects. */
const open = (client: TestClient, link: URL) => client.get(link.pathname + link.search);

describe('my account: profile', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('changes the name and phone, which the session then carries', async () => {
    const person = await register(app);
    const answer = await person.post('/api/auth/update-user', {
      name: '  Renée Renamed ',
      phone: '+1 555 010 9999',
    });
    expect(answer.status).toBe(200);
    expect((await whoIs(person))?.user).toMatchObject({
      name: 'Renée Renamed',
      phone: '+1 555 010 9999',
    });
    // null removes the phone.
    expect((await person.post('/api/auth/update-user', { phone: null })).status).toBe(200);
    expect((await whoIs(person))?.user.phone).toBeNull();
  });

  it('refuses a bad phone, an empty body and fields that are not the profile', async () => {
    const person = await register(app);
    for (const [body, field] of [
      [{ phone: 'call me' }, 'phone'],
      [{ phone: '12' }, 'phone'],
      [{ name: '' }, 'name'],
      [{}, 'body'],
      [{ email: 'new@example.com' }, 'body'],
      [{ roles: ['admin'] }, 'body'],
      [{ emailVerified: true }, 'body'],
      [{ verified: true }, 'body'],
    ] as const) {
      const response = await person.post('/api/auth/update-user', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).field, JSON.stringify(body)).toBe(field);
    }
    const [row] = await app.database.db
      .select()
      .from(user)
      .where(eq(user.email, person.account.email));
    expect(row).toMatchObject({ roles: ['Buyer'], emailVerified: false, verified: false });
  });

  it('refuses a new name that carries a web address, and takes one with dots as names have', async () => {
    const person = await register(app);
    for (const name of ['http://x', 'evil.example', 'www.foo.com', 'buy at foo.ru']) {
      const response = await person.post('/api/auth/update-user', { name });
      expect(response.status, name).toBe(400);
      expect(await errorOf(response), name).toMatchObject({
        code: 'validation-failed',
        field: 'name',
      });
    }
    expect((await whoIs(person))?.user.name).toBe(person.account.name);
    expect((await person.post('/api/auth/update-user', { name: 'St. John' })).status).toBe(200);
    expect((await whoIs(person))?.user.name).toBe('St. John');
  });

  it('takes a profile photo through the safe upload path, and only one of your own', async () => {
    const buyer = await register(app);
    const uploaded = await uploadBytes(
      buyer,
      await jpegWithExif(640, 480),
      'me.jpg',
      'image/jpeg',
      '/api/uploads/profile-photo',
    );
    expect(uploaded.status).toBe(200);
    const { data } = (await uploaded.json()) as { data: { url: string; thumbUrl: string } };
    // A buyer may not upload car photos, but may upload a profile photo.
    expect((await uploadBytes(buyer, await jpegWithExif(64, 48))).status).toBe(403);

    const other = await register(app);
    const stolen = await other.post('/api/auth/update-user', { image: data.url });
    expect(stolen.status).toBe(400);
    expect((await errorOf(stolen)).field).toBe('image');
    const outside = await buyer.post('/api/auth/update-user', {
      image: 'https://evil.example/me.jpg',
    });
    expect(outside.status).toBe(400);

    expect((await buyer.post('/api/auth/update-user', { image: data.url })).status).toBe(200);
    // The thumbnail is what a profile shows.
    expect((await whoIs(buyer))?.user.image).toBe(data.thumbUrl);
    expect((await app.request(data.thumbUrl)).headers.get('content-type')).toBe('image/webp');

    // The hourly sweep of unused photos keeps a profile photo, and takes an unused one.
    const spare = await uploadBytes(
      buyer,
      await jpegWithExif(64, 48),
      'spare.jpg',
      'image/jpeg',
      '/api/uploads/profile-photo',
    );
    const spareUrl = ((await spare.json()) as { data: { url: string } }).data.url;
    await sweepUnusedUploads(app.database.db, app.storage, new Date(Date.now() + 60_000));
    const keys = (await app.database.db.select({ key: upload.key }).from(upload)).map(
      (row) => `/media/${row.key}`,
    );
    expect(keys).toContain(data.url);
    expect(keys).not.toContain(spareUrl);
  });

  it('keeps the car photo rules: a seller still uploads car photos, a photo is yours alone', async () => {
    const seller = await register(app, { role: 'Seller' });
    const url = await uploadPhoto(seller);
    const buyer = await register(app);
    expect((await buyer.post('/api/auth/update-user', { image: url })).status).toBe(400);
  });
});

describe('my account: password', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('refuses a wrong current password and changes nothing', async () => {
    const person = await register(app);
    const response = await person.post('/api/auth/change-password', {
      currentPassword: 'not my password',
      newPassword: 'a brand new passphrase',
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({
      code: 'wrong-password',
      field: 'currentPassword',
      message: 'That is not your current password.',
    });
    // Still signed in, and the old password still works.
    expect((await whoIs(person))?.user.email).toBe(person.account.email);
    await signInAs(app, person.account.email, person.account.password);
  });

  it('refuses a weak new password with the shared rules', async () => {
    const person = await register(app);
    const response = await person.post('/api/auth/change-password', {
      currentPassword: person.account.password,
      newPassword: 'password1',
    });
    expect(response.status).toBe(400);
    expect(await errorOf(response)).toMatchObject({ code: 'weak-password', field: 'newPassword' });
  });

  it('changes it, ending every other session and every bearer token at once', async () => {
    const person = await register(app);
    const laptop = Object.assign(
      await signInAs(app, person.account.email, person.account.password),
      { account: person.account },
    );
    const laptopToken = await bearerOf(laptop);
    const ownToken = await bearerOf(person);
    const me = `/api/user/buyer/${person.account.email}`;
    expect((await laptop.get(me)).status).toBe(200);
    expect((await laptopToken.get(me)).status).toBe(200);

    const response = await person.post('/api/auth/change-password', {
      currentPassword: person.account.password,
      newPassword: 'a brand new passphrase',
      // Asking to keep the other sessions changes nothing: they always end.
      revokeOtherSessions: false,
    });
    expect(response.status).toBe(200);

    expect((await laptop.get(me)).status).toBe(401);
    expect((await laptopToken.get(me)).status).toBe(401);
    // The tokens of this browser's old session end too; its new cookie works.
    expect((await ownToken.get(me)).status).toBe(401);
    expect((await person.get(me)).status).toBe(200);
    expect(await (await bearerOf(person)).get(me).then((r) => r.status)).toBe(200);

    const old = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: person.account.email,
      password: person.account.password,
    });
    expect(old.status).toBe(401);
    await signInAs(app, person.account.email, 'a brand new passphrase');
  });

  it('mails "your password was changed" with a reset link for "this wasn\'t me"', async () => {
    const person = await register(app);
    await person.post('/api/auth/change-password', {
      currentPassword: person.account.password,
      newPassword: 'a brand new passphrase',
    });
    const notice = await waitForMail(app, person.account.email, /password was changed/);
    expect(notice.text).toContain("This wasn't me");
    // The link is a real reset link: it leads to the reset page with a token that works.
    const visit = await open(new TestClient(app), linkIn(notice));
    expect(visit.status).toBe(302);
    const location = new URL(visit.headers.get('location')!, app.baseUrl);
    expect(location.pathname).toBe('/reset-password');
    const reset = await new TestClient(app).post('/api/auth/reset-password', {
      token: location.searchParams.get('token'),
      newPassword: 'taken back by the owner',
    });
    expect(reset.status).toBe(200);
    await signInAs(app, person.account.email, 'taken back by the owner');
    // Taking the account back ends the session of whoever changed the password.
    expect((await person.get('/api/jwt?email=' + person.account.email)).status).toBe(401);
  });

  it('limits wrong guesses of the current password, as wrong sign-ins are', async () => {
    const person = await register(app);
    const guess = () =>
      person.post('/api/auth/change-password', {
        currentPassword: 'a guess at it',
        newPassword: 'a brand new passphrase',
      });
    for (let i = 0; i < 5; i += 1) expect((await guess()).status).toBe(400);
    const limited = await guess();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await errorOf(limited)).code).toBe('too-many-requests');
  });

  it('asks a signed-out caller to sign in before anything else', async () => {
    for (const path of [
      '/api/auth/change-password',
      '/api/auth/update-user',
      '/api/auth/change-email',
      '/api/auth/revoke-session',
      '/api/auth/revoke-other-sessions',
      '/api/auth/delete-user',
    ]) {
      const response = await new TestClient(app).post(path, { nonsense: true });
      expect(response.status, path).toBe(401);
      expect((await errorOf(response)).code, path).toBe('unauthenticated');
    }
    expect((await new TestClient(app).get('/api/auth/list-sessions')).status).toBe(401);
  });
});

describe('my account: email address', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  it('confirms the address given at sign-up through the mailed link', async () => {
    const person = await register(app);
    expect((await whoIs(person))?.user.emailVerified).toBe(false);
    const mail = await waitForMail(app, person.account.email, /Confirm your CarMarket email/);
    const visit = await open(person, linkIn(mail));
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('/dashboard/settings?email=confirmed');
    expect((await whoIs(person))?.user.emailVerified).toBe(true);

    const again = await person.post('/api/auth/send-verification-email', {
      email: person.account.email,
    });
    expect(again.status).toBe(409);
  });

  it('sends the link again on request, up to the limit, then answers 429 with Retry-After', async () => {
    const person = await register(app);
    const send = () =>
      person.post('/api/auth/send-verification-email', { email: person.account.email });
    for (let i = 0; i < 5; i += 1) expect((await send()).status).toBe(200);
    const limited = await send();
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    await waitForMail(app, person.account.email, /Confirm your CarMarket email/);
  });

  it('changes the address only once the link sent to the new one is opened', async () => {
    const person = await register(app);
    const newEmail = `moved-${Date.now()}@example.com`;
    const asked = await person.post('/api/auth/change-email', {
      newEmail,
      currentPassword: person.account.password,
    });
    expect(asked.status).toBe(200);

    // Nothing has changed: the old address still signs in, the new one does not.
    expect((await whoIs(person))?.user.email).toBe(person.account.email);
    await signInAs(app, person.account.email, person.account.password);
    const early = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: newEmail,
      password: person.account.password,
    });
    expect(early.status).toBe(401);

    const notice = await waitForMail(app, person.account.email, /change of your CarMarket email/);
    expect(notice.text).toContain(newEmail);
    expect(notice.text).not.toMatch(/verify-email/);
    const confirmation = await waitForMail(app, newEmail, /Confirm your new CarMarket email/);
    const visit = await open(person, linkIn(confirmation));
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toBe('/dashboard/settings?email=changed');

    expect((await whoIs(person))?.user).toMatchObject({ email: newEmail, emailVerified: true });
    await signInAs(app, newEmail, person.account.password);
    const gone = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: person.account.email,
      password: person.account.password,
    });
    expect(gone.status).toBe(401);
    // The link has done its work; opening it again changes nothing.
    const twice = await open(person, linkIn(confirmation));
    expect(twice.headers.get('location')).toMatch(/^\/dashboard\/settings\?email=changed&error=/);
    expect((await whoIs(person))?.user.email).toBe(newEmail);
  });

  it('answers the same for an address that has an account, and mails it nothing', async () => {
    const person = await register(app);
    const other = await register(app);
    const free = `free-${Date.now()}@example.com`;
    const currentPassword = person.account.password;
    const taken = await person.post('/api/auth/change-email', {
      newEmail: other.account.email,
      currentPassword,
    });
    const fresh = await person.post('/api/auth/change-email', { newEmail: free, currentPassword });
    expect(taken.status).toBe(200);
    expect(await taken.json()).toEqual(await fresh.json());
    await waitForMail(app, free, /Confirm your new CarMarket email/);
    expect(
      (await mailsTo(app, other.account.email)).filter((m) => /new CarMarket/.test(m.subject)),
    ).toEqual([]);
    // The old mailbox is told of both, so it cannot tell which address has an account.
    await expect
      .poll(async () =>
        (await mailsTo(app, person.account.email))
          .filter((mail) => /change of your CarMarket email/.test(mail.subject))
          .map((mail) => [other.account.email, free].find((to) => mail.text.includes(to)))
          .sort(),
      )
      .toEqual([other.account.email, free].sort());
  });

  it('asks for the current password; a wrong one counts as a guess, as at sign-in', async () => {
    const person = await register(app);
    const newEmail = `guarded-${Date.now()}@example.com`;
    const without = await person.post('/api/auth/change-email', { newEmail });
    expect(await errorOf(without)).toMatchObject({
      code: 'validation-failed',
      field: 'currentPassword',
    });
    const guess = () =>
      person.post('/api/auth/change-email', { newEmail, currentPassword: 'a guess at it' });
    for (let i = 0; i < 5; i += 1) {
      const wrong = await guess();
      expect(wrong.status).toBe(400);
      expect(await errorOf(wrong)).toMatchObject({
        code: 'wrong-password',
        field: 'currentPassword',
      });
    }
    expect((await guess()).status).toBe(429);
    expect(await mailsTo(app, newEmail)).toEqual([]);
  });

  it('leaves the address alone when the new one was taken before the link was opened', async () => {
    const person = await register(app);
    const newEmail = `contested-${Date.now()}@example.com`;
    await person.post('/api/auth/change-email', {
      newEmail,
      currentPassword: person.account.password,
    });
    const confirmation = await waitForMail(app, newEmail, /Confirm your new CarMarket email/);
    await register(app, { email: newEmail });
    const visit = await open(person, linkIn(confirmation));
    expect(visit.status).toBe(302);
    expect(visit.headers.get('location')).toMatch(/error=USER_ALREADY_EXISTS/);
    expect((await whoIs(person))?.user.email).toBe(person.account.email);
  });

  it('refuses the address you have, and a malformed one', async () => {
    const person = await register(app);
    const same = await person.post('/api/auth/change-email', {
      newEmail: person.account.email.toUpperCase(),
      currentPassword: person.account.password,
    });
    expect(same.status).toBe(400);
    expect((await errorOf(same)).field).toBe('newEmail');
    const bad = await person.post('/api/auth/change-email', { newEmail: 'nope' });
    expect(await errorOf(bad)).toMatchObject({ code: 'invalid-email', field: 'newEmail' });
  });
});
