import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { mailOptOut, savedSearch } from '../../db/schema.ts';
import { signerFor } from '../../lib/signing.ts';

/**
 * What an unsubscribe link turns off: one saved search's alerts, a person's saved-car notices, or
 * both of them for all their searches (the link in the mail of alerts held past a day's limit).
 * The link carries it signed with the server's secret, so it works without signing in and cannot
 * be made for someone else's mail.
 */
export type Unsubscribe =
  | { kind: 'search'; id: string }
  | { kind: 'saved-cars'; userId: string }
  | { kind: 'alerts'; userId: string };

const PREFIX = { search: 's', 'saved-cars': 'c', alerts: 'a' } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export function unsubscribeTokens(secret: string) {
  const signer = signerFor(secret, 'unsubscribe');
  return {
    issue(what: Unsubscribe): string {
      const payload = `${PREFIX[what.kind]}.${what.kind === 'search' ? what.id : what.userId}`;
      return `${payload}.${signer.sign(payload)}`;
    },
    verify(token: string): Unsubscribe | null {
      const match = /^([sca])\.([0-9a-f-]{36})\.([A-Za-z0-9_-]{43})$/.exec(token);
      if (!match || !UUID.test(match[2]!)) return null;
      if (!signer.verify(`${match[1]}.${match[2]}`, match[3]!)) return null;
      if (match[1] === 's') return { kind: 'search', id: match[2]! };
      return { kind: match[1] === 'c' ? 'saved-cars' : 'alerts', userId: match[2]! };
    },
  };
}
export type UnsubscribeTokens = ReturnType<typeof unsubscribeTokens>;

/** Turns off what an unsubscribe link names; answers it in words ("alerts for ..."). */
export async function turnOffMail(db: Db, what: Unsubscribe): Promise<string> {
  if (what.kind === 'search') {
    const [row] = await db
      .update(savedSearch)
      .set({ alerts: 'off' })
      .where(eq(savedSearch.id, what.id))
      .returning({ name: savedSearch.name });
    return row ? `alerts for your saved search "${row.name}"` : 'alerts for a search you deleted';
  }
  await db
    .insert(mailOptOut)
    .values({ userId: what.userId, kind: 'saved-cars' })
    .onConflictDoNothing();
  if (what.kind === 'saved-cars') return 'mail about your saved cars';
  await db.update(savedSearch).set({ alerts: 'off' }).where(eq(savedSearch.userId, what.userId));
  return 'alerts for all your saved searches and mail about your saved cars';
}
