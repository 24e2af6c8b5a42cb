import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import {
  DATA_EXPORT_FILES,
  DATA_EXPORTS_PER_DAY,
  DataExportManifestSchema,
} from '@carmarket/shared';
import { account, session, user } from '../../db/schema.ts';
import { codeOf, register, TestClient } from '../../test/client.ts';
import { book, newCar, payFor } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';

/** Every file of a ZIP by name, as bytes, read with a separate unzipper (yauzl). */
function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error ?? new Error('not a ZIP'));
      const files = new Map<string, Buffer>();
      zip.on('entry', (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (openError, stream) => {
          if (openError || !stream) return reject(openError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            files.set(entry.fileName, Buffer.concat(chunks));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(files));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

const json = (files: Map<string, Buffer>, name: string) =>
  JSON.parse(files.get(name)!.toString('utf8')) as unknown;

async function download(client: TestClient) {
  const response = await client.get('/api/my/data-export');
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/zip');
  expect(response.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
  return unzip(Buffer.from(await response.arrayBuffer()));
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

describe('download my data', () => {
  it("gives a seller a ZIP of their profile, car and its photo, sale, message and saved search, and nobody else's email or any secret", async () => {
    const seller = await register(app, { role: 'Seller', name: 'Export Seller' });
    const car = await newCar(app, { seller, name: 'Exported Roadster' });
    const buyer = await book(app, car.id);
    const asked = await buyer.post(`/api/listings/${car.id}/messages`, {
      body: 'Is the roadster still for sale?',
    });
    expect(asked.status).toBe(200);
    const { conversationId } = (await asked.json()) as { conversationId: string };
    const replied = await seller.post(`/api/conversations/${conversationId}/messages`, {
      body: 'It is, come and see it.',
    });
    expect(replied.status).toBe(200);
    const transactionId = await payFor(buyer, buyer.bookingId);
    // Saving searches is a buyer's: the seller buys too.
    expect((await seller.post('/api/user/roles', { role: 'Buyer' })).status).toBe(200);
    const saved = await seller.post('/api/saved-searches', {
      name: 'Blue estates',
      query: 'make=Volvo',
      alerts: 'off',
    });
    expect(saved.status).toBe(200);

    const files = await download(seller);

    const [me] = await app.database.db
      .select()
      .from(user)
      .where(eq(user.email, seller.account.email));
    const manifest = DataExportManifestSchema.parse(json(files, 'manifest.json'));
    expect(manifest.userId).toBe(me!.id);
    for (const name of DATA_EXPORT_FILES) expect(files.has(name), name).toBe(true);

    expect(json(files, 'profile.json')).toMatchObject({
      id: me!.id,
      name: 'Export Seller',
      email: seller.account.email,
      roles: ['Seller', 'Buyer'],
      signInMethods: [{ provider: 'credential' }],
    });

    const cars = json(files, 'cars.json') as Array<{
      id: string;
      name: string;
      status: string;
      photos: Array<{ file: string }>;
    }>;
    expect(cars).toHaveLength(1);
    expect(cars[0]).toMatchObject({ id: car.id, name: 'Exported Roadster', status: 'sold' });
    // The photo in the ZIP is the very file the site serves.
    const photoFile = cars[0]!.photos[0]!.file;
    expect(photoFile).toMatch(new RegExp(`^photos/${car.id}/1-`));
    const served = await app.request(`/media/${photoFile.split('/').at(-1)!.replace(/^1-/, '')}`);
    expect(served.status).toBe(200);
    const servedBytes = Buffer.from(await served.arrayBuffer());
    expect(servedBytes.length).toBeGreaterThan(0);
    expect(files.get(photoFile)!.equals(servedBytes)).toBe(true);

    expect(json(files, 'bookings.json')).toEqual([
      expect.objectContaining({
        side: 'seller',
        id: buyer.bookingId,
        car: { id: car.id, name: 'Exported Roadster' },
        status: 'paid',
        buyerName: buyer.account.name,
      }),
    ]);
    expect(json(files, 'conversations.json')).toEqual([
      expect.objectContaining({
        id: conversationId,
        youAre: 'seller',
        with: buyer.account.name,
        messages: [
          expect.objectContaining({ from: 'them', text: 'Is the roadster still for sale?' }),
          expect.objectContaining({ from: 'you', text: 'It is, come and see it.' }),
        ],
      }),
    ]);
    expect(json(files, 'saved-searches.json')).toEqual([
      expect.objectContaining({ name: 'Blue estates', query: 'make=Volvo', alerts: 'off' }),
    ]);
    expect(json(files, 'sign-in-devices.json')).toEqual([
      expect.objectContaining({ signedInAt: expect.any(String) }),
    ]);

    // Nothing in any file names the buyer's email or phone, or holds a secret of the seller's.
    const everything = Buffer.concat([...files.values()]).toString('latin1');
    expect(everything).toContain(seller.account.email);
    expect(everything).not.toContain(buyer.account.email);
    expect(everything).not.toContain('010-2030');
    const [password] = await app.database.db
      .select({ hash: account.password })
      .from(account)
      .where(eq(account.userId, me!.id));
    expect(password!.hash).toBeTruthy();
    expect(everything).not.toContain(password!.hash!);
    const tokens = await app.database.db
      .select({ token: session.token })
      .from(session)
      .where(eq(session.userId, me!.id));
    expect(tokens.length).toBeGreaterThan(0);
    for (const { token } of tokens) expect(everything).not.toContain(token);

    // The buyer's own export has their payment, and the booking with what they typed.
    const buyerFiles = await download(buyer);
    expect(json(buyerFiles, 'payments.json')).toEqual([
      expect.objectContaining({ bookingId: buyer.bookingId, transactionId, status: 'succeeded' }),
    ]);
    expect(json(buyerFiles, 'bookings.json')).toEqual([
      expect.objectContaining({
        side: 'buyer',
        id: buyer.bookingId,
        yourEmail: buyer.account.email,
        paidAt: expect.any(String),
      }),
    ]);
    expect(json(buyerFiles, 'cars.json')).toEqual([]);
    expect(Buffer.concat([...buyerFiles.values()]).toString('latin1')).not.toContain(
      seller.account.email,
    );
  });

  it('asks a signed-out visitor to sign in', async () => {
    const response = await new TestClient(app).get('/api/my/data-export');
    expect(response.status).toBe(401);
    expect(await codeOf(response)).toBe('unauthenticated');
  });

  it(`allows ${DATA_EXPORTS_PER_DAY} exports a day to each person, then says when to come back`, async () => {
    const person = await register(app);
    for (let n = 0; n < DATA_EXPORTS_PER_DAY; n += 1) await download(person);
    const refused = await person.get('/api/my/data-export');
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const body = (await refused.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('too-many-requests');
    expect(body.error.message).toMatch(/3 times a day\. Try again in 24 hours\./);
    // Another person's allowance is their own.
    await download(await register(app));
  });

  it('does not hold up a shutdown while a download is under way', async () => {
    const other = await startTestApp();
    try {
      const person = await register(other);
      const started = await person.get('/api/my/data-export');
      expect(started.status).toBe(200);
      // The body is never read: closing must cut the download rather than wait for the client.
    } finally {
      await other.close();
    }
  });
});
