import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import type { Mailer, MailMessage } from '../../adapters/mail.ts';
import { queueMail } from '../mail/mail-queue.ts';
import type { Unsubscribe, UnsubscribeTokens } from './unsubscribe.ts';

/* What every alert step shares: its deps, its batches, and queueing one alert mail. */

export interface AlertDeps {
  db: Db;
  mailer: Mailer;
  log: FastifyBaseLogger;
  /** The site's address, for links in mail. */
  siteOrigin: () => string;
  unsubscribe: UnsubscribeTokens;
  /** Hours between two digests of one saved search. */
  digestHours: number;
  /** Alert mails one address gets in a day (UTC); the rest goes in one mail after the day. */
  mailsPerDay: number;
}

/** What a sending step did: rows it claimed (it runs again while it claims some) and mails queued. */
export type Sent = { claimed: number; sent: number };

/** Alerts claimed per transaction. */
export const SEND_BATCH = 200;

/** Ids as one `uuid[]` parameter (one value however many ids, unlike an IN list). */
export const uuids = (ids: string[]) => sql`${`{${ids.join(',')}}`}::uuid[]`;
/** Pairs as a table: `unnest(search ids, car ids) as p(search_id, listing_id)`. */
export const pairTable = (pairs: { search_id: string; listing_id: string }[]) =>
  sql`unnest(${uuids(pairs.map((p) => p.search_id))}, ${uuids(pairs.map((p) => p.listing_id))}) as p(search_id, listing_id)`;

/** Queues one alert with its one-click unsubscribe link, in the text and in the headers (RFC 8058). */
export async function queueAlert(
  tx: Tx,
  deps: AlertDeps,
  what: Unsubscribe,
  message: MailMessage,
): Promise<void> {
  const token = deps.unsubscribe.issue(what);
  const site = deps.siteOrigin();
  const stop = {
    search: 'Stop alerts for this search',
    'saved-cars': 'Stop mail about saved cars',
    alerts: 'Stop all alert mail',
  }[what.kind];
  await queueMail(tx, {
    ...message,
    text: `${message.text}\n\n${stop}: ${site}/unsubscribe?token=${token}`,
    headers: {
      'List-Unsubscribe': `<${site}/api/unsubscribe?token=${token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    },
  });
}
