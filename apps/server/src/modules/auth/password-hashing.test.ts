import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, user } from '../../db/schema.ts';
import { TestClient } from '../../test/client.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/**
 * The other tests hash passwords cheaply (test/prepared-database.ts); this one runs the hashing
 * a server runs, better-auth's scrypt, from the seed to sign-up and sign-in.
 */
describe('passwords hashed as a running server hashes them', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ realPasswords: true });
  });
  afterAll(() => app.close());

  async function storedHash(email: string): Promise<string | null | undefined> {
    const [row] = await app.database.db
      .select({ password: account.password })
      .from(account)
      .innerJoin(user, eq(user.id, account.userId))
      .where(eq(user.email, email));
    return row?.password;
  }

  it('stores a scrypt hash at sign-up and signs in with it, and only with the password', async () => {
    const email = 'real-hash@example.com';
    const password = 'a long and fine password';
    const signUp = await new TestClient(app).post('/api/auth/sign-up/email', {
      name: 'Robin Real',
      email,
      password,
    });
    expect(signUp.status).toBe(200);
    // better-auth's format: a 16-byte salt and a 64-byte key, in hex.
    expect(await storedHash(email)).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);

    const wrong = await new TestClient(app).post('/api/auth/sign-in/email', {
      email,
      password: 'not the password at all',
    });
    expect(wrong.status).toBe(401);
    const client = new TestClient(app);
    const signIn = await client.post('/api/auth/sign-in/email', { email, password });
    expect(signIn.status).toBe(200);
    const session = (await (await client.get('/api/auth/get-session')).json()) as {
      user: { email: string };
    };
    expect(session.user.email).toBe(email);
  });

  it('seeds the demo accounts with the same hashing', async () => {
    expect(await storedHash('buyer@demo.local')).toMatch(/^[0-9a-f]{32}:[0-9a-f]{128}$/);
    const signIn = await new TestClient(app).post('/api/auth/sign-in/email', {
      email: 'buyer@demo.local',
      password: 'demo-drive-2026',
    });
    expect(signIn.status).toBe(200);
  });
});
