import fs from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { session } from '../../db/schema.ts';
import { createAccessTokens } from '../auth/access-token.ts';
import { codeOf, register, signInAs, TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

describe('the spec user calls', () => {
  let app: TestApp;
  let admin: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    admin = await signInAs(app, 'admin@demo.local');
  });
  afterAll(() => app.close());

  describe('POST /api/user', () => {
    it('asks a signed-out caller to sign in', async () => {
      const response = await new TestClient(app).post('/api/user', {
        email: 'x@example.com',
        role: 'Buyer',
      });
      expect(response.status).toBe(401);
      expect(await codeOf(response)).toBe('unauthenticated');
    });

    it('sets the role once, accepts the same answer again, refuses a switch', async () => {
      const person = await register(app, { role: undefined });
      const body = { name: 'Renamed Person', email: person.account.email, role: 'Seller' };
      expect(await (await person.post('/api/user', body)).json()).toEqual({ acknowledged: true });
      expect((await person.post('/api/user', body)).status).toBe(200);
      const flip = await person.post('/api/user', { ...body, role: 'Buyer' });
      expect(flip.status).toBe(409);
      expect(await codeOf(flip)).toBe('conflict');
      const session = (await (await person.get('/api/auth/get-session')).json()) as {
        user: { name: string; roles: string[] };
      };
      expect(session.user).toMatchObject({ name: 'Renamed Person', roles: ['Seller'] });
    });

    it('never makes anyone an admin', async () => {
      const person = await register(app, { role: undefined });
      const response = await person.post('/api/user', {
        email: person.account.email,
        role: 'admin',
      });
      expect(response.status).toBe(400);
      expect(await codeOf(response)).toBe('validation-failed');
    });

    it("refuses to set someone else's role", async () => {
      const person = await register(app, { role: undefined });
      const other = await register(app, { role: undefined });
      const response = await person.post('/api/user', {
        email: other.account.email,
        role: 'Seller',
      });
      expect(response.status).toBe(403);
    });

    it('names the field of a malformed body', async () => {
      const person = await register(app, { role: undefined });
      for (const body of [
        {},
        { email: 'nope', role: 'Buyer' },
        { email: person.account.email, role: 7 },
      ]) {
        const response = await person.post('/api/user', body);
        expect(response.status).toBe(400);
        expect(((await response.json()) as { error: { field: string } }).error.field).toMatch(
          /email|role/,
        );
      }
    });
  });

  describe('POST /api/google/user', () => {
    it('makes a role-less account a Buyer and leaves a Seller a Seller', async () => {
      const fresh = await register(app, { role: undefined });
      expect((await fresh.post('/api/google/user', { email: fresh.account.email })).status).toBe(
        200,
      );
      expect(await (await fresh.get(`/api/user/buyer/${fresh.account.email}`)).json()).toEqual({
        isBuyer: true,
      });

      const seller = await register(app, { role: 'Seller' });
      expect((await seller.post('/api/google/user', { email: seller.account.email })).status).toBe(
        200,
      );
      expect(await (await seller.get(`/api/user/seller/${seller.account.email}`)).json()).toEqual({
        isSeller: true,
      });
    });

    it('is for signed-in callers and their own email', async () => {
      expect(
        (await new TestClient(app).post('/api/google/user', { email: 'a@example.com' })).status,
      ).toBe(401);
      const person = await register(app);
      expect(
        (await person.post('/api/google/user', { email: 'someone.else@example.com' })).status,
      ).toBe(403);
    });
  });

  describe('GET /api/user/{admin,buyer,seller}/:email', () => {
    it('answers each role flag for the user themself', async () => {
      const buyer = await signInAs(app, 'buyer@demo.local');
      const seller = await signInAs(app, 'seller@demo.local');
      const flags = async (client: TestClient, email: string) => ({
        ...((await (await client.get(`/api/user/admin/${email}`)).json()) as object),
        ...((await (await client.get(`/api/user/buyer/${email}`)).json()) as object),
        ...((await (await client.get(`/api/user/seller/${email}`)).json()) as object),
      });
      expect(await flags(buyer, 'buyer@demo.local')).toEqual({
        isAdmin: false,
        isBuyer: true,
        isSeller: false,
      });
      expect(await flags(seller, 'seller@demo.local')).toEqual({
        isAdmin: false,
        isBuyer: false,
        isSeller: true,
      });
      expect(await flags(admin, 'admin@demo.local')).toEqual({
        isAdmin: true,
        isBuyer: false,
        isSeller: false,
      });
      // Emails are matched without regard to case.
      expect(await (await buyer.get('/api/user/buyer/BUYER@demo.local')).json()).toEqual({
        isBuyer: true,
      });
    });

    it('lets an admin look anyone up, and nobody else', async () => {
      expect(await (await admin.get('/api/user/seller/seller@demo.local')).json()).toEqual({
        isSeller: true,
      });
      const buyer = await signInAs(app, 'buyer@demo.local');
      const response = await buyer.get('/api/user/admin/admin@demo.local');
      expect(response.status).toBe(403);
      expect(await codeOf(response)).toBe('forbidden');
      expect((await new TestClient(app).get('/api/user/admin/admin@demo.local')).status).toBe(401);
    });

    it('answers a malformed email with 400', async () => {
      const response = await admin.get('/api/user/admin/not-an-email');
      expect(response.status).toBe(400);
      expect(await codeOf(response)).toBe('validation-failed');
    });
  });

  describe('GET /api/jwt and bearer tokens', () => {
    it('issues a short-lived token for one’s own email that every route accepts', async () => {
      const seller = await signInAs(app, 'seller@demo.local');
      const response = await seller.get('/api/jwt?email=seller@demo.local');
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('no-store');
      const { accessToken, expiresAt } = (await response.json()) as {
        accessToken: string;
        expiresAt: string;
      };
      const minutes = (Date.parse(expiresAt) - Date.now()) / 60_000;
      expect(minutes).toBeGreaterThan(50);
      expect(minutes).toBeLessThanOrEqual(60);
      const bearer = new TestClient(app);
      bearer.bearer = accessToken;
      expect(await (await bearer.get('/api/user/seller/seller@demo.local')).json()).toEqual({
        isSeller: true,
      });
    });

    it("refuses a token for someone else's email, and to signed-out callers", async () => {
      const buyer = await signInAs(app, 'buyer@demo.local');
      expect((await buyer.get('/api/jwt?email=admin@demo.local')).status).toBe(403);
      expect((await new TestClient(app).get('/api/jwt?email=admin@demo.local')).status).toBe(401);
    });

    it('answers a forged, malformed or expired token with 401 and the reason', async () => {
      const buyer = await signInAs(app, 'buyer@demo.local');
      const { accessToken } = (await (
        await buyer.get('/api/jwt?email=buyer@demo.local')
      ).json()) as {
        accessToken: string;
      };
      const [header, payload, signature] = accessToken.split('.');
      const forgedPayload = Buffer.from(
        JSON.stringify({
          ...JSON.parse(Buffer.from(payload!, 'base64url').toString()),
          sub: '00000000-0000-4000-8000-000000000000',
        }),
      ).toString('base64url');
      const attempts: Array<[string, string]> = [
        [`${header}.${forgedPayload}.${signature}`, 'invalid-user-token'],
        [`${accessToken.slice(0, -4)}AAAA`, 'invalid-user-token'],
        ['not-a-token', 'invalid-user-token'],
      ];
      const secret = await fs.readFile(path.join(app.dataDir, 'auth-secret'), 'utf8');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString()) as {
        sub: string;
        sid: string;
      };
      const expired = await createAccessTokens(secret, -120).issue(
        { userId: claims.sub, sessionId: claims.sid },
        new Date(Date.now() + 3_600_000),
      );
      attempts.push([expired.token, 'user-token-expired']);
      for (const [token, code] of attempts) {
        const client = new TestClient(app);
        client.bearer = token;
        const response = await client.get('/api/user/buyer/buyer@demo.local');
        expect(response.status).toBe(401);
        expect(await codeOf(response)).toBe(code);
      }
      const basic = await fetch(`${app.baseUrl}/api/user/buyer/buyer@demo.local`, {
        headers: { authorization: 'Basic abc' },
      });
      expect(await codeOf(basic)).toBe('invalid-user-token');
    });

    it('mints tokens for a signed-in browser only: a bearer token cannot get another', async () => {
      const person = await register(app);
      const mint = `/api/jwt?email=${encodeURIComponent(person.account.email)}`;
      const { accessToken } = (await (await person.get(mint)).json()) as { accessToken: string };
      const bearer = new TestClient(app);
      bearer.bearer = accessToken;
      const refused = await bearer.get(mint);
      expect(refused.status).toBe(403);
      expect(await codeOf(refused)).toBe('forbidden');
      // The web app sends its token beside the cookie: the cookie is what counts.
      person.bearer = accessToken;
      expect((await person.get(mint)).status).toBe(200);
    });

    it('never mints a token that outlives its session', async () => {
      const person = await register(app);
      // "Remember me" off: the session lasts a day and is not extended.
      const browser = new TestClient(app);
      const signIn = await browser.post('/api/auth/sign-in/email', {
        email: person.account.email,
        password: person.account.password,
        rememberMe: false,
      });
      expect(signIn.status).toBe(200);
      const { session: current } = (await (await browser.get('/api/auth/get-session')).json()) as {
        session: { id: string };
      };
      // The session began almost a day ago: 20 minutes are left, less than a token's hour.
      const sessionEnds = new Date(Date.now() + 20 * 60_000);
      await app.database.db
        .update(session)
        .set({ expiresAt: sessionEnds })
        .where(eq(session.id, current.id));
      const answer = await browser.get(
        `/api/jwt?email=${encodeURIComponent(person.account.email)}`,
      );
      expect(answer.status).toBe(200);
      const { accessToken, expiresAt } = (await answer.json()) as {
        accessToken: string;
        expiresAt: string;
      };
      expect(Date.parse(expiresAt)).toBeLessThanOrEqual(sessionEnds.getTime());
      const claims = JSON.parse(
        Buffer.from(accessToken.split('.')[1]!, 'base64url').toString(),
      ) as { exp: number };
      expect(claims.exp * 1000).toBeLessThanOrEqual(sessionEnds.getTime());
    });

    it('stops a token when its session ends', async () => {
      const person = await register(app);
      const { accessToken } = (await (
        await person.get(`/api/jwt?email=${person.account.email}`)
      ).json()) as {
        accessToken: string;
      };
      await person.post('/api/auth/sign-out');
      const bearer = new TestClient(app);
      bearer.bearer = accessToken;
      const response = await bearer.get(`/api/user/buyer/${person.account.email}`);
      expect(response.status).toBe(401);
      expect(await codeOf(response)).toBe('user-token-expired');
    });
  });
});
