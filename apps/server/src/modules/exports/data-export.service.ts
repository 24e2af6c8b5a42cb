import { Readable } from 'node:stream';
import { and, asc, eq, getTableColumns, gt, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { ZipFile } from 'yazl';
import type { DataExportFile, DataExportManifest } from '@carmarket/shared';
import { DATA_EXPORT_FILES } from '@carmarket/shared';
import type { Db } from '../../db/client.ts';
import {
  account,
  booking,
  conversation,
  ledgerEntry,
  listing,
  message,
  payment,
  payout,
  savedCar,
  savedSearch,
  session,
  user,
} from '../../db/schema.ts';
import { MEDIA_PREFIX, type Storage } from '../../adapters/storage.ts';
import {
  photoPath,
  presentBookingMade,
  presentBookingOfMyCar,
  presentCar,
  presentConversationHead,
  presentLedgerLine,
  presentMessage,
  presentPayment,
  presentPayout,
  presentProfile,
  presentSavedCar,
  presentSavedSearch,
  presentSignInDevice,
} from './exports.presenter.ts';

/** Rows read a query at a time; a person's export never holds more than a page of a kind. */
const PAGE = 500;

const keyOf = (url: string) =>
  url.startsWith(MEDIA_PREFIX) ? url.slice(MEDIA_PREFIX.length) : url;

/** Pages of rows by keyset: `read(after)` answers the rows after the key, at most PAGE. */
async function* keyset<R>(
  read: (after: string | null) => Promise<R[]>,
  keyOfRow: (row: R) => string,
): AsyncGenerator<R[]> {
  let last: string | null = null;
  for (;;) {
    const rows = await read(last);
    if (rows.length > 0) yield rows;
    if (rows.length < PAGE) return;
    last = keyOfRow(rows.at(-1)!);
  }
}

/** A JSON array written as its pages arrive, one row a line. */
async function* jsonArray(pages: AsyncIterable<unknown[]>): AsyncGenerator<string> {
  let first = true;
  yield '[';
  for await (const rows of pages) {
    const lines = rows.map((row) => `  ${JSON.stringify(row)}`).join(',\n');
    yield `${first ? '\n' : ',\n'}${lines}`;
    first = false;
  }
  yield first ? ']\n' : '\n]\n';
}

async function* once<T>(rows: T[]): AsyncGenerator<T[]> {
  if (rows.length > 0) yield rows;
}

/**
 * A stream that opens its source only when the ZIP writer comes to its entry. yazl pipes it,
 * and a pipe does not pass errors on: `fail` hears of them.
 */
function lazily(source: () => AsyncIterable<string | Buffer>, fail: (error: Error) => void) {
  const stream = Readable.from(
    (async function* () {
      yield* source();
    })(),
    { objectMode: false },
  );
  stream.once('error', fail);
  return stream;
}

export interface DataExportDeps {
  db: Db;
  storage: Storage;
}

/**
 * Everything of one person as a ZIP (decision 042), streamed: each file is read from the
 * database a page at a time as the ZIP writer reaches it, and each photo is opened only when its
 * turn comes, so a seller with thousands of cars costs a page of rows and a photo's buffers,
 * never the whole export. `onError` hears of a failure after the answer began (the download is
 * then cut short; the client sees an incomplete file).
 */
export function dataExport(
  { db, storage }: DataExportDeps,
  userId: string,
  onError: (error: Error) => void,
): Readable {
  const zip = new ZipFile();
  // A PassThrough (yazl's types say only NodeJS.ReadableStream).
  const output = zip.outputStream as unknown as Readable;
  const mtime = new Date();
  let failed = false;
  const fail = (error: unknown) => {
    if (failed) return;
    failed = true;
    const failure = error instanceof Error ? error : new Error(String(error));
    onError(failure);
    output.destroy(failure);
  };
  zip.on('error', fail);
  const addJson = (name: DataExportFile, source: () => AsyncIterable<string>) =>
    zip.addReadStream(lazily(source, fail), name, { mtime, compress: true });
  const addArray = (name: DataExportFile, pages: () => AsyncIterable<unknown[]>) =>
    addJson(name, () => jsonArray(pages()));

  const manifest: DataExportManifest = {
    exportedAt: mtime.toISOString(),
    userId,
    files: [...DATA_EXPORT_FILES],
    photos: 'photos/<car id>/<n>-<file>, n from 1 (the cover); cars.json names each car’s files',
  };
  zip.addBuffer(Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`), 'manifest.json', { mtime });

  addJson('profile.json', async function* () {
    const [row] = await db.select().from(user).where(eq(user.id, userId));
    if (!row) throw new Error('The account went while its data was exported.');
    const methods = await db
      .select({ providerId: account.providerId, createdAt: account.createdAt })
      .from(account)
      .where(eq(account.userId, userId));
    yield `${JSON.stringify(presentProfile(row, methods), null, 2)}\n`;
  });

  const carsPages = () =>
    keyset(
      (after) =>
        db
          .select()
          .from(listing)
          .where(and(eq(listing.sellerId, userId), after ? gt(listing.id, after) : undefined))
          .orderBy(asc(listing.id))
          .limit(PAGE),
      (row) => row.id,
    );
  addArray('cars.json', async function* () {
    for await (const rows of carsPages()) yield rows.map((row) => presentCar(row, keyOf));
  });

  addArray('bookings.json', async function* () {
    const made = keyset(
      (after) =>
        db
          .select({ ...getTableColumns(booking), carName: listing.name })
          .from(booking)
          .innerJoin(listing, eq(listing.id, booking.listingId))
          .where(and(eq(booking.buyerId, userId), after ? gt(booking.id, after) : undefined))
          .orderBy(asc(booking.id))
          .limit(PAGE),
      (row) => row.id,
    );
    for await (const rows of made) yield rows.map(presentBookingMade);
    const ofMyCars = keyset(
      (after) =>
        db
          .select({
            id: booking.id,
            listingId: booking.listingId,
            status: booking.status,
            closedReason: booking.closedReason,
            priceCents: booking.priceCents,
            currency: booking.currency,
            buyerName: booking.buyerName,
            createdAt: booking.createdAt,
            paidAt: booking.paidAt,
            carName: listing.name,
          })
          .from(booking)
          .innerJoin(listing, eq(listing.id, booking.listingId))
          .where(and(eq(listing.sellerId, userId), after ? gt(booking.id, after) : undefined))
          .orderBy(asc(booking.id))
          .limit(PAGE),
      (row) => row.id,
    );
    for await (const rows of ofMyCars) yield rows.map(presentBookingOfMyCar);
  });

  addArray('payments.json', async function* () {
    const pages = keyset(
      (after) =>
        db
          .select(getTableColumns(payment))
          .from(payment)
          .innerJoin(booking, eq(booking.id, payment.bookingId))
          .where(and(eq(booking.buyerId, userId), after ? gt(payment.id, after) : undefined))
          .orderBy(asc(payment.id))
          .limit(PAGE),
      (row) => row.id,
    );
    for await (const rows of pages) yield rows.map(presentPayment);
  });

  addArray('payouts.json', async function* () {
    const pages = keyset(
      (after) =>
        db
          .select()
          .from(payout)
          .where(and(eq(payout.sellerId, userId), after ? gt(payout.id, after) : undefined))
          .orderBy(asc(payout.id))
          .limit(PAGE),
      (row) => row.id,
    );
    for await (const rows of pages) yield rows.map(presentPayout);
  });

  addArray('ledger.json', async function* () {
    const pages = keyset(
      (after) =>
        db
          .select()
          .from(ledgerEntry)
          .where(
            and(eq(ledgerEntry.sellerId, userId), after ? gt(ledgerEntry.id, after) : undefined),
          )
          .orderBy(asc(ledgerEntry.id))
          .limit(PAGE),
      (row) => row.id,
    );
    for await (const rows of pages) yield rows.map(presentLedgerLine);
  });

  // Conversations are written by hand rather than through jsonArray: each holds its messages,
  // which are paged too.
  addJson('conversations.json', async function* () {
    const other = alias(user, 'other');
    const heads = keyset(
      (after) =>
        db
          .select({
            id: conversation.id,
            listingId: conversation.listingId,
            buyerId: conversation.buyerId,
            carName: listing.name,
            otherName: other.name,
            otherDeletedAt: other.deletedAt,
            createdAt: conversation.createdAt,
          })
          .from(conversation)
          .innerJoin(listing, eq(listing.id, conversation.listingId))
          .innerJoin(
            other,
            or(
              and(eq(conversation.buyerId, userId), eq(other.id, conversation.sellerId)),
              and(eq(conversation.sellerId, userId), eq(other.id, conversation.buyerId)),
            ),
          )
          .where(
            and(
              or(eq(conversation.buyerId, userId), eq(conversation.sellerId, userId)),
              after ? gt(conversation.id, after) : undefined,
            ),
          )
          .orderBy(asc(conversation.id))
          .limit(PAGE),
      (row) => row.id,
    );
    let first = true;
    yield '[';
    for await (const rows of heads) {
      for (const row of rows) {
        const head = presentConversationHead({
          ...row,
          youAre: row.buyerId === userId ? 'buyer' : 'seller',
          otherDeleted: row.otherDeletedAt !== null,
        });
        // The head's JSON without its closing brace, then its messages, then the brace.
        yield `${first ? '\n' : ',\n'}  ${JSON.stringify(head).slice(0, -1)},"messages":[`;
        first = false;
        let firstMessage = true;
        let lastSeq = 0;
        for (;;) {
          const messages = await db
            .select({
              seq: message.seq,
              senderId: message.senderId,
              kind: message.kind,
              body: message.body,
              createdAt: message.createdAt,
            })
            .from(message)
            .where(and(eq(message.conversationId, row.id), gt(message.seq, lastSeq)))
            .orderBy(asc(message.seq))
            .limit(PAGE);
          if (messages.length > 0) {
            const text = messages
              .map((line) => `\n    ${JSON.stringify(presentMessage(line, userId))}`)
              .join(',');
            yield `${firstMessage ? '' : ','}${text}`;
            firstMessage = false;
          }
          if (messages.length < PAGE) break;
          lastSeq = messages.at(-1)!.seq;
        }
        yield firstMessage ? ']}' : '\n  ]}';
      }
    }
    yield first ? ']\n' : '\n]\n';
  });

  addArray('saved-cars.json', async function* () {
    const pages = keyset(
      (after) =>
        db
          .select({
            listingId: savedCar.listingId,
            carName: listing.name,
            priceAtSavingCents: savedCar.priceAtSavingCents,
            createdAt: savedCar.createdAt,
          })
          .from(savedCar)
          .innerJoin(listing, eq(listing.id, savedCar.listingId))
          .where(
            and(eq(savedCar.userId, userId), after ? gt(savedCar.listingId, after) : undefined),
          )
          .orderBy(asc(savedCar.listingId))
          .limit(PAGE),
      (row) => row.listingId,
    );
    for await (const rows of pages) yield rows.map(presentSavedCar);
  });

  addArray('saved-searches.json', async function* () {
    const pages = keyset(
      (after) =>
        db
          .select()
          .from(savedSearch)
          .where(and(eq(savedSearch.userId, userId), after ? gt(savedSearch.id, after) : undefined))
          .orderBy(asc(savedSearch.id))
          .limit(PAGE),
      (row) => row.id,
    );
    for await (const rows of pages) yield rows.map(presentSavedSearch);
  });

  addArray('sign-in-devices.json', async function* () {
    const rows = await db
      .select({
        userAgent: session.userAgent,
        ipAddress: session.ipAddress,
        createdAt: session.createdAt,
        lastSeenAt: session.lastSeenAt,
        expiresAt: session.expiresAt,
      })
      .from(session)
      .where(eq(session.userId, userId))
      .orderBy(asc(session.createdAt));
    // A person has a handful of sessions (each sign-in is one; they lapse).
    yield* once(rows.map(presentSignInDevice));
  });

  // The photos, a page of cars at a time. yazl writes entries in order, one at a time; the next
  // page's entries are added only once the writer has reached the last photo of this one, so
  // the queue never holds more than two pages of (unopened) photos.
  const closed = new Promise<void>((resolve) => output.once('close', resolve));
  void (async () => {
    let reached: Promise<void> = Promise.resolve();
    for await (const cars of carsPages()) {
      await Promise.race([reached, closed]);
      if (output.destroyed) return;
      const photos = cars.flatMap((car) =>
        car.images.map((image, index) => ({
          key: keyOf(image.url),
          path: photoPath(car.id, index, keyOf(image.url)),
        })),
      );
      let reach = () => {};
      reached = photos.length > 0 ? new Promise((resolve) => (reach = resolve)) : Promise.resolve();
      photos.forEach((photo, index) => {
        const last = index === photos.length - 1;
        zip.addReadStream(
          lazily(async function* () {
            if (last) reach();
            const object = await storage.get(photo.key);
            // A photo the storage lost is an empty file rather than a failed export.
            if (object) yield* object.body as AsyncIterable<Buffer>;
          }, fail),
          photo.path,
          // Photos are WebP: deflating them again gains nothing.
          { mtime, compress: false },
        );
      });
    }
    zip.end();
  })().catch(fail);

  return output;
}
