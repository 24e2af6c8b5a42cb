import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { errorOf, TestClient } from '../../test/client.ts';
import { startTestApp } from '../../test/test-app.ts';

/** A stand-in for Google's token and user-info endpoints. */
async function startFakeGoogle(profile: { sub: string; email: string; name: string }) {
  const calls: string[] = [];
  const server = http.createServer((req, res) => {
    calls.push(`${req.method} ${req.url?.split('?')[0]}`);
    res.setHeader('content-type', 'application/json');
    if (req.url?.startsWith('/token')) {
      res.end(
        JSON.stringify({
          access_token: 'fake-access',
          token_type: 'Bearer',
          expires_in: 3600,
          scope: 'openid email profile',
        }),
      );
    } else if (req.url?.startsWith('/userinfo')) {
      if (req.headers.authorization !== 'Bearer fake-access') {
        res.statusCode = 401;
        res.end('{}');
        return;
      }
      res.end(JSON.stringify({ ...profile, email_verified: true, picture: '' }));
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    calls,
    close: () => new Promise((r) => server.close(r)),
  };
}

describe('Google sign-in', () => {
  it('is off without credentials, and the sign-in options say so (rough edge 4)', async () => {
    const app = await startTestApp();
    try {
      const options = await app.request('/api/sign-in-options');
      expect(await options.json()).toEqual({
        google: false,
        emailLink: true,
        requireVerifiedEmail: false,
        deletedAccountHoldDays: 30,
        browseSignedOut: false,
      });
      const response = await new TestClient(app).post('/api/auth/sign-in/social', {
        provider: 'google',
      });
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toMatchObject({
        code: 'not-found',
        message: 'Google sign-in is not set up on this server.',
      });
    } finally {
      await app.close();
    }
  });

  it('creates the user from the provider answer and makes a first sign-in a Buyer', async () => {
    const google = await startFakeGoogle({
      sub: 'g-123',
      email: 'gina@gmail.example',
      name: 'Gina Google',
    });
    const app = await startTestApp({
      env: {
        GOOGLE_CLIENT_ID: 'client-id',
        GOOGLE_CLIENT_SECRET: 'client-secret',
        GOOGLE_AUTHORIZATION_URL: `${google.url}/authorize`,
        GOOGLE_TOKEN_URL: `${google.url}/token`,
        GOOGLE_USERINFO_URL: `${google.url}/userinfo`,
      },
    });
    try {
      // What the sign-in and register pages ask before they offer the button (rough edge 4).
      const options = await app.request('/api/sign-in-options');
      expect(await options.json()).toEqual({
        google: true,
        emailLink: true,
        requireVerifiedEmail: false,
        deletedAccountHoldDays: 30,
        browseSignedOut: false,
      });

      const client = new TestClient(app);
      const start = await client.post('/api/auth/sign-in/social', {
        provider: 'google',
        callbackURL: '/',
      });
      expect(start.status).toBe(200);
      const { url } = (await start.json()) as { url: string };
      const authorize = new URL(url);
      expect(authorize.origin + authorize.pathname).toBe(`${google.url}/authorize`);
      const state = authorize.searchParams.get('state')!;

      // The provider sends the browser back with a code; the server trades it for the profile.
      const callback = await client.get(
        `/api/auth/callback/google?code=fake-code&state=${encodeURIComponent(state)}`,
      );
      expect(callback.status).toBe(302);
      expect(google.calls).toEqual(expect.arrayContaining(['POST /token', 'GET /userinfo']));
      expect(client.hasSession()).toBe(true);

      const registered = await client.post('/api/google/user', {
        name: 'Gina Google',
        email: 'gina@gmail.example',
      });
      expect(await registered.json()).toEqual({ acknowledged: true });
      const isBuyer = await client.get('/api/user/buyer/gina@gmail.example');
      expect(await isBuyer.json()).toEqual({ isBuyer: true });
    } finally {
      await app.close();
      await google.close();
    }
  });
});
