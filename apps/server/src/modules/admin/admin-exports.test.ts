import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_EXPORT_TABLES } from '@carmarket/shared';
import { booking, listing, payout, user } from '../../db/schema.ts';
import { codeOf, register, signInAs, TestClient } from '../../test/client.ts';
import { newCar, paidBooking } from '../../test/fixtures.ts';
import { startTestApp, type TestApp } from '../../test/test-app.ts';
import { tableCsv } from './admin-exports.ts';

/** RFC 4180 read back: rows of cells, quoted cells unquoted. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i]!;
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i += 1;
    } else cell += char;
  }
  expect(cell, 'the last line ends in CRLF').toBe('');
  return rows;
}

let app: TestApp;
let admin: TestClient;
beforeAll(async () => {
  app = await startTestApp();
  admin = await signInAs(app, 'admin@demo.local');
});
afterAll(async () => {
  await app?.close();
});

async function csvOf(table: string) {
  const response = await admin.get(`/api/admin/exports/${table}.csv`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/csv; charset=utf-8');
  expect(response.headers.get('content-disposition')).toMatch(
    new RegExp(`^attachment; filename="carmarket-${table}-\\d{4}-\\d{2}-\\d{2}\\.csv"$`),
  );
  return response.text();
}

describe('the admin CSV exports', () => {
  it('write every row of each table once, with what people typed escaped and never run as a formula', async () => {
    const seller = await register(app, { role: 'Seller', name: '=HYPERLINK("evil"), "Bob"' });
    const car = await newCar(app, { seller });
    const edited = await seller.request(`/api/listings/${car.id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ describe: 'Line one, with a comma\n"Two" quoted\n@three' }),
    });
    expect(edited.status).toBe(200);
    await paidBooking(app);

    const usersText = await csvOf('users');
    // The cell as a spreadsheet reads it: an apostrophe first, quotes doubled, inside quotes.
    expect(usersText).toContain(`,"'=HYPERLINK(""evil""), ""Bob""",${seller.account.email},`);
    const users = parseCsv(usersText);
    expect(users[0]).toEqual([
      'id',
      'name',
      'email',
      'roles',
      'verified',
      'email_verified',
      'created_at',
      'deleted_at',
    ]);
    const [{ value: userCount }] = (await app.database.db
      .select({ value: count() })
      .from(user)) as [{ value: number }];
    expect(users.length - 1).toBe(Number(userCount));
    expect(new Set(users.slice(1).map((row) => row[0])).size).toBe(Number(userCount));
    const sellerRow = users.find((row) => row[2] === seller.account.email)!;
    expect(sellerRow[1]).toBe(`'=HYPERLINK("evil"), "Bob"`);
    expect(sellerRow[3]).toBe('Seller');

    const cars = parseCsv(await csvOf('cars'));
    const [{ value: carCount }] = (await app.database.db
      .select({ value: count() })
      .from(listing)) as [{ value: number }];
    expect(cars.length - 1).toBe(Number(carCount));
    const header = cars[0]!;
    const carRow = cars.find((row) => row[0] === car.id)!;
    expect(carRow[header.indexOf('description')]).toBe(
      'Line one, with a comma\n"Two" quoted\n@three',
    );
    expect(carRow[header.indexOf('seller_name')]).toBe(`'=HYPERLINK("evil"), "Bob"`);
    expect(carRow[header.indexOf('price_cents')]).toBe(String(car.repriceCents));
    expect(carRow[header.indexOf('status')]).toBe('available');

    const bookings = parseCsv(await csvOf('bookings'));
    const [{ value: bookingCount }] = (await app.database.db
      .select({ value: count() })
      .from(booking)) as [{ value: number }];
    expect(bookings.length - 1).toBe(Number(bookingCount));
    const paid = await app.database.db.select().from(booking).where(eq(booking.status, 'paid'));
    expect(paid.length).toBeGreaterThan(0);
    for (const row of paid) {
      const line = bookings.find((cells) => cells[0] === row.id)!;
      expect(line[bookings[0]!.indexOf('status')]).toBe('paid');
      expect(line[bookings[0]!.indexOf('transaction_id')]).toBe(row.transactionId);
    }

    const payouts = parseCsv(await csvOf('payouts'));
    const [{ value: payoutCount }] = (await app.database.db
      .select({ value: count() })
      .from(payout)) as [{ value: number }];
    expect(payouts[0]![0]).toBe('id');
    expect(payouts.length - 1).toBe(Number(payoutCount));
  });

  it('reads a table a page at a time by keyset, each row once, in the order of the whole', async () => {
    const whole = await csvOf('cars');
    let paged = '';
    for await (const chunk of tableCsv(app.database.db, 'cars', 7)) paged += String(chunk);
    expect(paged).toBe(whole);
    expect(parseCsv(paged).length - 1).toBeGreaterThan(7 * 2);
  });

  it('are for administrators only', async () => {
    const buyer = await register(app);
    const seller = await register(app, { role: 'Seller' });
    for (const table of ADMIN_EXPORT_TABLES) {
      const path = `/api/admin/exports/${table}.csv`;
      expect((await new TestClient(app).get(path)).status).toBe(401);
      for (const client of [buyer, seller]) {
        const refused = await client.get(path);
        expect(refused.status).toBe(403);
        expect(await codeOf(refused)).toBe('forbidden');
      }
    }
  });
});
