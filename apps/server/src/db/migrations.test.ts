import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/test-app.ts';
import { openDatabase, queryRows, type Database } from './client.ts';

const migrationsDir = fileURLToPath(new URL('./migrations', import.meta.url));

/** A copy of the migrations that stops before `tag`, to build a database as it was then. */
async function migrationsBefore(tag: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-migrations-'));
  await fs.cp(migrationsDir, dir, { recursive: true });
  const journalPath = path.join(dir, 'meta/_journal.json');
  const journal = JSON.parse(await fs.readFile(journalPath, 'utf8')) as {
    entries: { tag: string }[];
  };
  const at = journal.entries.findIndex((entry) => entry.tag === tag);
  journal.entries = journal.entries.slice(0, at);
  await fs.writeFile(journalPath, JSON.stringify(journal));
  return dir;
}

/** The databases the tests opened, closed after them. */
const opened: Database[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

/**
 * What a site that ran an earlier version finds after upgrading: a new database migrated up to
 * `tag`, `seed` run on it, then migrated the rest of the way. On disk, so the embedded database
 * can be opened again with the newer migrations.
 */
async function upgradedAcross(
  tag: string,
  seed: (db: Database['db']) => Promise<unknown>,
): Promise<Database> {
  const url = await createTestDatabase();
  const pgliteDir = path.join(await fs.mkdtemp(path.join(os.tmpdir(), 'carmarket-db-')), 'db');
  const open = async (dir: string) => {
    const database = await openDatabase({ url, pgliteDir, poolSize: 2, migrationsDir: dir });
    await database.migrate();
    return database;
  };
  const before = await open(await migrationsBefore(tag));
  await seed(before.db);
  await before.close();
  const after = await open(migrationsDir);
  opened.push(after);
  return after;
}

describe('migration 0004 (search)', () => {
  it('gives cars listed before it a make and model read from their names', async () => {
    const names = [
      'Toyota HiAce Commuter',
      'Mercedes-Benz Sprinter 316 CDI Tourer',
      'Land Rover Range Rover Sport HSE',
      'BMW 740Li xDrive',
      'Range Rover Autobiography',
      'My grandfather’s car',
    ];
    const after = await upgradedAcross('0004_search', (db) =>
      db.execute(sql`
      with c as (insert into category (name, slug, icon) values ('Microbus', 'microbus', '/i.webp') returning id),
      u as (insert into "user" (name, email) values ('Old Seller', 'old@example.com') returning id)
      insert into listing (category_id, seller_id, seller_name, name, condition, location, year,
        reprice_cents, orprice_cents, currency)
      select c.id, u.id, 'Old Seller', n, 'Good', 'Portland, OR', 2020, 100, 100, 'USD'
      from c, u, unnest(array[${sql.join(
        names.map((name) => sql`${name}`),
        sql`, `,
      )}]::text[]) as n`),
    );
    const rows = await queryRows<{ name: string; make: string; model: string }>(
      after.db,
      sql`select name, make, model from listing order by name`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, `${row.make} / ${row.model}`]))).toEqual(
      {
        'Toyota HiAce Commuter': 'Toyota / HiAce',
        'Mercedes-Benz Sprinter 316 CDI Tourer': 'Mercedes-Benz / Sprinter',
        'Land Rover Range Rover Sport HSE': 'Land Rover / Range Rover Sport',
        'BMW 740Li xDrive': 'BMW / Other',
        'Range Rover Autobiography': 'Other / Other',
        'My grandfather’s car': 'Other / Other',
      },
    );
  });
});

describe('migration 0009 (my account)', () => {
  it("keeps every account's one role as the first of its roles, and no role as none", async () => {
    const after = await upgradedAcross('0009_account', (db) =>
      db.execute(sql`
      insert into "user" (name, email, role) values
        ('Bea Buyer', 'bea@example.com', 'Buyer'),
        ('Sol Seller', 'sol@example.com', 'Seller'),
        ('Ada Admin', 'ada@example.com', 'admin'),
        ('Nia New', 'nia@example.com', null)`),
    );
    const rows = await queryRows<{ email: string; roles: string[] }>(
      after.db,
      sql`select email, roles from "user" order by email`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.email, row.roles]))).toEqual({
      'ada@example.com': ['admin'],
      'bea@example.com': ['Buyer'],
      'nia@example.com': [],
      'sol@example.com': ['Seller'],
    });
    // The list keeps to the known roles, as the single column did.
    await expect(
      after.db.execute(
        sql`update "user" set roles = array['Owner'] where email = 'bea@example.com'`,
      ),
    ).rejects.toThrow();
  });
});

describe('migration 0017 (deal rating on the car)', () => {
  it('gives each car on sale the rating the price guide kept for it, and no other car one', async () => {
    const after = await upgradedAcross('0017_deal_rating_on_car', (db) =>
      db.execute(sql`
      with c as (insert into category (name, slug, icon) values ('Estate', 'estate', '/i.webp') returning id),
      u as (insert into "user" (name, email) values ('Old Seller', 'old@example.com') returning id),
      cars as (
        insert into listing (category_id, seller_id, seller_name, name, condition, location, year,
          reprice_cents, orprice_cents, currency, make, model, status)
        select c.id, u.id, 'Old Seller', n, 'Good', 'Portland, OR', 2020, 100, 100, 'USD', 'Subaru',
          'Outback', s
        from c, u, (values ('on sale', 'available'), ('held', 'reserved'), ('withdrawn', 'withdrawn'),
          ('unrated', 'available')) as v (n, s)
        returning id, name)
      insert into listing_deal (listing_id, fair_cents, low_cents, high_cents, comparables, ratio, rating)
      select id, 100, 90, 110, 30, 1, case name when 'held' then 'great' else 'fair' end
      from cars where name <> 'unrated'`),
    );
    const rows = await queryRows<{ name: string; deal_rating: string | null }>(
      after.db,
      sql`select name, deal_rating from listing order by name`,
    );
    expect(Object.fromEntries(rows.map((row) => [row.name, row.deal_rating]))).toEqual({
      held: 'great',
      'on sale': 'fair',
      unrated: null,
      withdrawn: null,
    });
  });
});

describe('migration 0020 (hand-over, payouts, the ledger)', () => {
  it('counts bookings paid before it as handed over, owed to their sellers less the fee', async () => {
    const after = await upgradedAcross('0020_handover_payouts_ledger', (db) =>
      db.execute(sql`
      with c as (insert into category (name, slug, icon) values ('Estate', 'estate', '/i.webp') returning id),
      s as (insert into "user" (name, email) values ('Old Seller', 'old-seller@example.com') returning id),
      b as (insert into "user" (name, email) values ('Old Buyer', 'old-buyer@example.com') returning id),
      cars as (
        insert into listing (category_id, seller_id, seller_name, name, condition, location, year,
          reprice_cents, orprice_cents, currency, make, model, status)
        select c.id, s.id, 'Old Seller', n, 'Good', 'Portland, OR', 2020, 1234567, 1234567, 'USD',
          'Subaru', 'Outback', st
        from c, s, (values ('sold car', 'sold'), ('booked car', 'available')) as v (n, st)
        returning id, name)
      insert into booking (listing_id, buyer_id, buyer_name, buyer_email, phone, location,
        price_cents, currency, status, paid_at, transaction_id)
      select cars.id, b.id, 'Old Buyer', 'old-buyer@example.com', '+1 503 555 0100', 'Portland',
        1234567, 'USD', case cars.name when 'sold car' then 'paid' else 'pending' end,
        case cars.name when 'sold car' then now() - interval '40 days' end,
        case cars.name when 'sold car' then 'pi_old' end
      from cars, b`),
    );
    const settlements = await queryRows<{
      state: string;
      fee_cents: number;
      seller_cents: number;
      released_by: string;
    }>(after.db, sql`select state, fee_cents, seller_cents, released_by from settlement`);
    // 5 % of $12,345.67 is $617.2835: the fee is rounded up, in the platform's favour.
    expect(
      settlements.map((row) => ({
        ...row,
        fee_cents: Number(row.fee_cents),
        seller_cents: Number(row.seller_cents),
      })),
    ).toEqual([
      { state: 'released', fee_cents: 61729, seller_cents: 1172838, released_by: 'timer' },
    ]);
    const ledger = await queryRows<{ movement: string; account: string; amount: string | number }>(
      after.db,
      sql`select movement, account, amount_cents as amount from ledger_entry order by movement, account`,
    );
    expect(ledger.map((row) => `${row.movement} ${row.account} ${Number(row.amount)}`)).toEqual([
      'charge cash 1234567',
      'charge escrow -1234567',
      'release escrow 1234567',
      'release fees -61729',
      'release seller -1172838',
    ]);
    // Nobody is mailed about bookings nothing happened to.
    const mail = await queryRows<{ n: number }>(
      after.db,
      sql`select count(*)::int as n from mail_queue`,
    );
    expect(Number(mail[0]!.n)).toBe(0);
  });
});

describe('migration 0021 (a refund gives the car back)', () => {
  it('turns bookings refunded before it refunded, and their cars withdrawn; other sales stay', async () => {
    const after = await upgradedAcross('0021_refund_gives_car_back', (db) =>
      db.execute(sql`
      with c as (insert into category (name, slug, icon) values ('Estate', 'estate', '/i.webp') returning id),
      s as (insert into "user" (name, email) values ('Old Seller', 'old-seller@example.com') returning id),
      b as (insert into "user" (name, email) values ('Old Buyer', 'old-buyer@example.com') returning id),
      cars as (
        insert into listing (category_id, seller_id, seller_name, name, condition, location, year,
          reprice_cents, orprice_cents, currency, make, model, status)
        select c.id, s.id, 'Old Seller', n, 'Good', 'Portland, OR', 2020, 1000000, 1000000, 'USD',
          'Subaru', 'Outback', 'sold'
        from c, s, (values ('refunded car'), ('kept car')) as v (n)
        returning id, name, seller_id),
      paid as (
        insert into booking (listing_id, buyer_id, buyer_name, buyer_email, phone, location,
          price_cents, currency, status, paid_at, transaction_id)
        select cars.id, b.id, 'Old Buyer', 'old-buyer@example.com', '+1 503 555 0100', 'Portland',
          1000000, 'USD', 'paid', now() - interval '3 days', 'pi_' || cars.name
        from cars, b
        returning id, listing_id)
      insert into settlement (booking_id, seller_id, price_cents, fee_cents, seller_cents, currency,
        state, release_due_at, refunded_at)
      select paid.id, cars.seller_id, 1000000, 50000, 950000, 'USD',
        case cars.name when 'refunded car' then 'refunded' else 'awaiting-handover' end,
        now() + interval '4 days',
        case cars.name when 'refunded car' then now() end
      from paid join cars on cars.id = paid.listing_id`),
    );
    const rows = await queryRows<{ name: string; car: string; booking: string }>(
      after.db,
      sql`select l.name, l.status as car, b.status as booking
          from listing l join booking b on b.listing_id = l.id order by l.name`,
    );
    expect(rows).toEqual([
      { name: 'kept car', car: 'sold', booking: 'paid' },
      { name: 'refunded car', car: 'withdrawn', booking: 'refunded' },
    ]);
    // The refunded booking keeps its payment's record.
    const [kept] = await queryRows<{ paid: boolean }>(
      after.db,
      sql`select paid_at is not null and transaction_id = 'pi_refunded car' as paid
          from booking where status = 'refunded'`,
    );
    expect(kept?.paid).toBe(true);
  });
});
