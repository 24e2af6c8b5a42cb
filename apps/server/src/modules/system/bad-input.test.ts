import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/** `[[[ ... ]]]`, `depth` levels deep, as raw JSON text. */
const deepArray = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('input no route can take', () => {
  let app: TestApp;
  let seller: TestClient;
  beforeAll(async () => {
    app = await startTestApp();
    seller = await register(app, { role: 'Seller' });
  });
  afterAll(() => app.close());

  describe('a malformed multipart body', () => {
    const boundary = 'XyZ123';
    const partHead =
      `--${boundary}\r\n` +
      'Content-Disposition: form-data; name="image"; filename="a.jpg"\r\n' +
      'Content-Type: image/jpeg\r\n\r\n';
    const bodies: Array<[string, string, string]> = [
      [
        'a boundary that never closes',
        `multipart/form-data; boundary=${boundary}`,
        `${partHead}abc`,
      ],
      [
        'garbage after the headers',
        `multipart/form-data; boundary=${boundary}`,
        `--${boundary}\r\n\u0000\u0001garbage with no blank line\r\n`,
      ],
      ['no boundary at all', 'multipart/form-data', `${partHead}abc\r\n--${boundary}--\r\n`],
      [
        'a boundary the body never uses',
        `multipart/form-data; boundary=other`,
        `${partHead}abc\r\n--${boundary}--\r\n`,
      ],
    ];
    for (const path of ['/api/uploads', '/api/uploads/profile-photo']) {
      it.each(bodies)(`to ${path}: %s answers 400 naming image`, async (_, type, body) => {
        const response = await seller.request(path, {
          method: 'POST',
          headers: { 'content-type': type },
          body,
        });
        expect(response.status).toBe(400);
        const error = await errorOf(response);
        expect(error.code).toBe('validation-failed');
        expect(error.field).toBe('image');
      });
    }
  });

  describe('JSON nested too deep', () => {
    it('answers 400 at sign-out (better-auth), on our own routes, and to an anonymous caller', async () => {
      const buyer = await register(app);
      const calls: Array<[TestClient, string]> = [
        [buyer, '/api/auth/sign-out'],
        [buyer, '/api/auth/update-user'],
        [new TestClient(app), '/api/auth/sign-in/email'],
        [buyer, '/api/user'],
        [seller, '/api/product?name=Microbus'],
      ];
      for (const [client, path] of calls) {
        const response = await client.request(path, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: deepArray(20_000),
        });
        expect(response.status, path).toBe(400);
        expect(await errorOf(response), path).toMatchObject({
          code: 'bad-request',
          field: 'body',
          message: 'The JSON body nests too deeply (at most 64 levels).',
        });
      }
      // Refused before better-auth saw it: the sign-out did not happen.
      expect(await (await buyer.get('/api/auth/get-session')).json()).not.toBeNull();
    });

    it('lets 64 levels through to the route, brackets inside strings not counted', async () => {
      const buyer = await register(app);
      const response = await buyer.request('/api/user', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"name": ${deepArray(63).replace('[]', '["]]]{{{[[[\\"["]')}}`,
      });
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ code: 'validation-failed', field: 'name' });
      const deeper = await buyer.request('/api/user', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: `{"name": ${deepArray(64)}}`,
      });
      expect((await errorOf(deeper)).code).toBe('bad-request');
    });
  });

  describe('control characters in tokens and query strings', () => {
    const controls = ['\u0000', '\u0001', '\u001f', '\u007f', '\n'];

    it('answers 400 naming the token for a reset-password token', async () => {
      for (const control of controls) {
        const response = await new TestClient(app).post('/api/auth/reset-password', {
          token: `abc${control}def`,
          newPassword: 'correct horse battery staple',
        });
        expect(response.status, JSON.stringify(control)).toBe(400);
        expect((await errorOf(response)).field).toBe('token');
      }
    });

    it('answers 400 naming the parameter in any query string: mailed links, searches, lists', async () => {
      const admin = await signInAs(app, 'admin@demo.local');
      const anonymous = new TestClient(app);
      for (const control of controls) {
        const bad = encodeURIComponent(`abc${control}def`);
        const calls: Array<[TestClient, string, string, string]> = [
          [anonymous, 'GET', `/api/auth/verify-email?token=${bad}&callbackURL=%2F`, 'token'],
          [anonymous, 'GET', `/api/auth/magic-link/verify?token=${bad}`, 'token'],
          [anonymous, 'POST', `/api/unsubscribe?token=${bad}`, 'token'],
          [seller, 'GET', `/api/listings?q=${bad}`, 'q'],
          [seller, 'GET', `/api/listings?make=Honda&make=${bad}`, 'make'],
          [admin, 'GET', `/api/all/user?q=${bad}`, 'q'],
          // A route that reads no query at all.
          [anonymous, 'GET', `/api/category?sort=${bad}`, 'sort'],
        ];
        for (const [client, method, path, field] of calls) {
          const response = await client.request(path, {
            method,
            ...(method === 'POST' && { json: {} }),
          });
          const label = `${method} ${path}`;
          expect(response.status, label).toBe(400);
          expect(await errorOf(response), label).toMatchObject({
            code: 'validation-failed',
            field,
          });
        }
      }
    });

    it('names the query string itself when the control character is in a name', async () => {
      const response = await seller.get('/api/listings?q%00=1');
      expect(response.status).toBe(400);
      expect((await errorOf(response)).field).toBe('querystring');
    });
  });

  describe('bidirectional controls', () => {
    it("are removed from a car's name and description and from a message, as stored and shown", async () => {
      const demoSeller = await signInAs(app, 'seller@demo.local');
      const car = await newCar(app, { seller: demoSeller });
      const edited = await demoSeller.request(`/api/listings/${car.id}`, {
        method: 'PATCH',
        json: { name: 'Civic \u202egnp.exe', describe: 'One owner.\n\u2066Winter\u2069 tyres.' },
      });
      expect(edited.status).toBe(200);
      const buyer = await register(app);
      const shown = (await (await buyer.get(`/api/listings/${car.id}`)).json()) as {
        name: string;
        description: string;
      };
      expect(shown).toMatchObject({
        name: 'Civic gnp.exe',
        description: 'One owner.\nWinter tyres.',
      });

      const sent = await buyer.post(`/api/listings/${car.id}/messages`, {
        body: 'Is \u202dthe\u202c price firm?',
      });
      expect(sent.status).toBe(200);
      const { conversationId, message } = (await sent.json()) as {
        conversationId: string;
        message: { body: string };
      };
      expect(message.body).toBe('Is the price firm?');
      const thread = await (
        await demoSeller.get(`/api/conversations/${conversationId}/messages`)
      ).text();
      expect(thread).toContain('Is the price firm?');
      expect(thread).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
    });
  });
});
