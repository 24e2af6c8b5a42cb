import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AcknowledgedCountSchema,
  ApiErrorSchema,
  ConversationListSchema,
  ConversationPageQuerySchema,
  ConversationReportListSchema,
  ConversationSchema,
  IdParamsSchema,
  InsertedSchema,
  MessagePageQuerySchema,
  MessagePageSchema,
  ReportConversationSchema,
  SendMessageSchema,
  SentMessageSchema,
  UnreadCountSchema,
} from '@carmarket/shared';
import { errorResponses } from '../../lib/route-schemas.ts';
import { currentUser, guard } from '../../plugins/auth.ts';
import { messagesPolicy } from './messages.policy.ts';
import {
  presentConversation,
  presentMessage,
  presentReport,
  presentUnread,
} from './messages.presenter.ts';
import { readableConversation } from './conversation-access.ts';
import { conversationsOf, messagesPage, unreadOf } from './conversation-reads.ts';
import {
  askAboutCar,
  markRead,
  sendMessage,
  setBlocked,
  type MessagesDeps,
} from './message-writes.ts';
import { listReports, reportConversation, resolveReport } from './reports.service.ts';
import { addressKey } from '../../lib/proxy-trust.ts';

/**
 * Sending can also be refused for going too fast (429) or while the shared counters are away
 * (503); a stream, when this process holds all the streams it may (503). A person's 11th stream
 * on a process is not refused: it ends their oldest.
 */
const sendResponses = { ...errorResponses, 429: ApiErrorSchema, 503: ApiErrorSchema };

/** An event number as a stream gave it: digits only. Anything else is ignored (start from now). */
const EVENT_NUMBER = /^\d{1,15}$/;

const StreamQuerySchema = z.object({
  /** For clients that cannot set the Last-Event-ID header when they open a new stream. */
  lastEventId: z
    .string()
    .regex(EVENT_NUMBER, 'lastEventId must be an event number this server gave')
    .optional(),
});

/** Conversations about cars (issue 16): signed in; anything you are not a member of is 404. */
export const messageRoutes: FastifyPluginAsyncZod<{ deps: MessagesDeps }> = async (
  app,
  { deps },
) => {
  const { db } = deps;
  const signedIn = { preValidation: app.authenticate };

  app.post(
    '/listings/:id/messages',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary:
          'Ask the seller about a car (buyer accounts): starts the conversation, or adds to it',
        params: IdParamsSchema,
        body: SendMessageSchema,
        response: { 200: SentMessageSchema, ...sendResponses },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const sent = await askAboutCar(deps, actor, request.params.id, request.body.body);
      return { conversationId: sent.conversationId, message: presentMessage(sent, actor) };
    },
  );

  app.get(
    '/conversations',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary:
          'My conversations, newest activity first, each with its car, the other person, the last message and my unread count',
        querystring: ConversationPageQuerySchema,
        response: { 200: ConversationListSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const actor = currentUser(request);
      const { rows, nextCursor } = await conversationsOf(db, actor, request.query);
      return { items: rows.map((row) => presentConversation(row, actor)), nextCursor };
    },
  );

  app.get(
    '/conversations/unread',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary: 'How many messages I have not read (the badge in the header)',
        response: { 200: UnreadCountSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return presentUnread(await unreadOf(db, currentUser(request)));
    },
  );

  app.get(
    '/conversations/stream',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary: 'Server-Sent Events: new messages and read receipts of my conversations',
        description:
          'Events `ready`, `message`, `read`, `conversation`, `reset` and `superseded` (ended for a newer tab: past ten of one person’s), each with a JSON `data` (see the shared schemas). Every event but `superseded` has an `id`; a reconnecting client sends the last as `Last-Event-ID` (or `?lastEventId=`) and is sent what it missed. A comment line comes every 25 s.',
        querystring: StreamQuerySchema,
        produces: ['text/event-stream'],
        // The body is a stream of events, never serialized; described above. 503: this process
        // holds all the streams it may, or all it may for the client's address.
        response: { 200: z.unknown(), ...sendResponses },
      },
    },
    async (request, reply) => {
      const actor = currentUser(request);
      const header = request.headers['last-event-id'];
      const given = typeof header === 'string' ? header.trim() : request.query.lastEventId;
      const lastEventId = given && EVENT_NUMBER.test(given) ? Number(given) : undefined;
      // First, as it may refuse (503) in our ordinary JSON error.
      const body = deps.live.open(
        { userId: actor.id, sessionId: actor.sessionId, ip: addressKey(request.ip) },
        lastEventId,
      );
      // Tied to the connection before anything is awaited, whether the client went while its
      // session was checked or goes later: the stream leaves the hub with it.
      const gone = () => body.destroy();
      if (request.raw.socket.destroyed) gone();
      else reply.raw.once('close', gone);
      return (
        reply
          .header('content-type', 'text/event-stream; charset=utf-8')
          .header('cache-control', 'no-store, no-transform')
          // nginx and its kind would otherwise hold events back in their buffers.
          .header('x-accel-buffering', 'no')
          .send(body)
      );
    },
  );

  app.get(
    '/conversations/:id',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary: "One conversation (its members; admins while a member's report of it is open)",
        params: IdParamsSchema,
        response: { 200: ConversationSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const actor = currentUser(request);
      return presentConversation(await readableConversation(db, actor, request.params.id), actor);
    },
  );

  app.get(
    '/conversations/:id/messages',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary:
          'A page of messages, oldest first within the page; `nextCursor` leads to older ones',
        params: IdParamsSchema,
        querystring: MessagePageQuerySchema,
        response: { 200: MessagePageSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const actor = currentUser(request);
      const conversation = await readableConversation(db, actor, request.params.id);
      const { rows, nextCursor } = await messagesPage(db, conversation.id, request.query);
      return { items: rows.map((row) => presentMessage(row, actor)), nextCursor };
    },
  );

  app.post(
    '/conversations/:id/messages',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary: 'Write in a conversation (its members, while it is open)',
        params: IdParamsSchema,
        body: SendMessageSchema,
        response: { 200: SentMessageSchema, ...sendResponses },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      const sent = await sendMessage(deps, actor, request.params.id, request.body.body);
      return { conversationId: sent.conversationId, message: presentMessage(sent, actor) };
    },
  );

  app.post(
    '/conversations/:id/read',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary: 'Mark every message of a conversation read (its members); the other sees "Seen"',
        params: IdParamsSchema,
        response: { 200: ConversationSchema, ...errorResponses },
      },
    },
    async (request) => {
      const actor = currentUser(request);
      return presentConversation(await markRead(deps, actor, request.params.id), actor);
    },
  );

  for (const [method, blocked] of [
    ['PUT', true],
    ['DELETE', false],
  ] as const) {
    app.route({
      method,
      url: '/conversations/:id/block',
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary: blocked
          ? 'Block the buyer (the seller): no more messages between you, about any of your cars'
          : 'Unblock the buyer (the seller)',
        params: IdParamsSchema,
        response: { 200: ConversationSchema, ...errorResponses },
      },
      handler: async (request) => {
        const actor = currentUser(request);
        return presentConversation(
          await setBlocked(deps, actor, request.params.id, blocked),
          actor,
        );
      },
    });
  }

  app.post(
    '/conversations/:id/report',
    {
      ...signedIn,
      schema: {
        tags: ['messages'],
        summary:
          'Report a conversation to the admins (its members), who may read it until they deal with the report',
        params: IdParamsSchema,
        body: ReportConversationSchema,
        response: { 200: InsertedSchema, ...errorResponses },
      },
    },
    async (request) => {
      const id = await reportConversation(
        db,
        currentUser(request),
        request.params.id,
        request.body.reason,
      );
      return { acknowledged: true as const, insertedId: id };
    },
  );

  const admins = { preValidation: [app.authenticate, guard(messagesPolicy.canReview)] };

  app.get(
    '/reports',
    {
      ...admins,
      schema: {
        tags: ['messages'],
        summary: 'Reported conversations, open reports first (admins)',
        response: { 200: ConversationReportListSchema, ...errorResponses },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return (await listReports(db)).map(presentReport);
    },
  );

  app.post(
    '/reports/:id/resolve',
    {
      ...admins,
      schema: {
        tags: ['messages'],
        summary: 'Mark a report dealt with (admins; recorded in the audit log)',
        params: IdParamsSchema,
        response: { 200: AcknowledgedCountSchema, ...errorResponses },
      },
    },
    async (request) => ({
      acknowledged: true as const,
      modifiedCount: await resolveReport(db, currentUser(request), request.params.id),
    }),
  );
};
