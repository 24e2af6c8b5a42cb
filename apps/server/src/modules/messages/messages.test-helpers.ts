// Setup shared by the messages tests (messages, conversation-lifecycle, message-limits, message-mail, sending-races).
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  ConversationSchema,
  MessagePageSchema,
  SentMessageSchema,
  UnreadCountSchema,
  type Conversation,
  type Message,
} from '@carmarket/shared';
import { listing, user } from '../../db/schema.ts';
import type { TestClient } from '../../test/client.ts';
import { demoListings } from '../../test/fixtures.ts';
import { type TestApp } from '../../test/test-app.ts';

// Workers run only when a test asks (app.runMessageMail), so each test knows what was sent.
export const env = { ALERT_INTERVAL_MS: '3600000' };

/**
 * The app of "talking to the seller" (messages.test.ts, conversation-lifecycle.test.ts): the demo
 * seller writes a lot there, and buyers with unconfirmed addresses ask about several cars; the
 * limits have tests of their own (message-limits.test.ts).
 */
export const talkingEnv = {
  ...env,
  MESSAGE_LIMIT_PER_MINUTE: '10000',
  MESSAGE_LIMIT_PER_DAY: '10000',
  UNCONFIRMED_CONVERSATION_LIMIT_PER_DAY: '20',
};

/** A new car of the demo seller, on sale (a copy of a demo car). */
export async function freshCar(app: TestApp, name = 'Test car'): Promise<string> {
  const [first] = await demoListings(app);
  const [row] = await app.database.db.select().from(listing).where(eq(listing.id, first!.id));
  const id = randomUUID();
  await app.database.db
    .insert(listing)
    .values({ ...row!, id, name, status: 'available', advertisedAt: null, createdAt: new Date() });
  return id;
}

export async function idOf(app: TestApp, client: TestClient & { account?: { email: string } }) {
  const email = client.account?.email ?? 'seller@demo.local';
  const [row] = await app.database.db
    .select({ id: user.id })
    .from(user)
    .where(eq(user.email, email));
  return row!.id;
}

export async function ask(buyer: TestClient, carId: string, body = 'Has the cambelt been done?') {
  const response = await buyer.post(`/api/listings/${carId}/messages`, { body });
  if (response.status !== 200)
    throw new Error(`ask failed: ${response.status} ${await response.text()}`);
  return SentMessageSchema.parse(await response.json());
}

export const send = (client: TestClient, id: string, body: string) =>
  client.post(`/api/conversations/${id}/messages`, { body });

export async function conversationAs(client: TestClient, id: string): Promise<Conversation> {
  const response = await client.get(`/api/conversations/${id}`);
  expect(response.status).toBe(200);
  return ConversationSchema.parse(await response.json());
}

export async function allMessages(
  client: TestClient,
  id: string,
  limit = 30,
): Promise<Message[][]> {
  const pages: Message[][] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    const response = await client.get(`/api/conversations/${id}/messages?${query}`);
    expect(response.status).toBe(200);
    const page = MessagePageSchema.parse(await response.json());
    pages.push(page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return pages;
}

export const unreadOf = async (client: TestClient) =>
  UnreadCountSchema.parse(await (await client.get('/api/conversations/unread')).json());
