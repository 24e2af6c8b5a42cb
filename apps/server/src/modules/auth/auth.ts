import { AsyncLocalStorage } from 'node:async_hooks';
import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { magicLink } from 'better-auth/plugins/magic-link';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { account, session, user, verification } from '../../db/schema.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { AppError } from '../../lib/errors.ts';
import type { DomainEvents } from '../../lib/events.ts';
import type { LiveHub } from '../messages/live.ts';
import type { Mailer } from '../../adapters/mail.ts';
import { deleteAccount } from '../users/account-deletion.ts';
import { deletedAccountSignInMessage } from '../users/deleted-accounts.ts';
import { errorForLog } from '../../lib/log-errors.ts';
import type { PasswordHashing } from './passwords.ts';
import {
  emailChangeConfirmation,
  passwordChangedNotice,
  resetPasswordMail,
  signInLinkMail,
  verifyEmailMail,
} from './account-mail.ts';

export const SESSION_DAYS = 7;
/** Set by better-auth-bridge.ts on every request it hands better-auth (a client's own is replaced). */
export const CLIENT_IP_HEADER = 'x-carmarket-client-ip';
/** How long an email sign-in link works. */
export const EMAIL_LINK_MINUTES = 15;
/** How long a link confirming an address (at sign-up, or a new address) works. */
export const VERIFY_LINK_HOURS = 24;

/** Where the links in account mail land: the settings page says what happened. */
export const SETTINGS_PATH = '/dashboard/settings';

/**
 * Set while better-auth is asked for a reset link to put in the "your password was changed"
 * notice (notifyPasswordChanged): its reset mail hook then writes that notice instead.
 */
const passwordChangedMail = new AsyncLocalStorage<true>();

export interface AuthDeps {
  log: FastifyBaseLogger;
  config: Config;
  db: Db;
  mailer: Mailer;
  secret: string;
  /** The origins whose pages may call the auth endpoints (and be sent back to after them). */
  trustedOrigins: () => string[];
  /** The site's own origin, for links in mail: never taken from a request. */
  siteOrigin: () => string;
  /** Live conversations: a signed-out session's streams end. */
  live: LiveHub;
  /** Where a deleted account is told (decision 026). */
  events: DomainEvents;
  /** Where mail sent after the answer runs, so closing the server waits for it. */
  background: BackgroundWork;
  passwords: PasswordHashing;
}

/** Google sign-in is offered only when the server has its credentials. */
export function googleSignInEnabled(config: Config): boolean {
  return Boolean(config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET);
}

/** better-auth, storing users and sessions in our database through Drizzle. */
export function createAuth({
  log,
  config,
  db,
  mailer,
  secret,
  trustedOrigins,
  siteOrigin,
  live,
  events,
  background,
  passwords,
}: AuthDeps) {
  const google = googleSignInEnabled(config);
  /**
   * Mail goes out after the answer, so an address with an account answers as fast as one
   * without (no account discovery by timing); a failure is logged.
   */
  const inBackground = (work: Promise<unknown>) => {
    void background.track('sending account mail', work);
  };
  /** better-auth's address-confirming link, landing on the settings page with what it did. */
  const verifyLink = (token: string, landing: string) =>
    `${siteOrigin()}/api/auth/verify-email?token=${encodeURIComponent(token)}&callbackURL=${encodeURIComponent(landing)}`;

  return betterAuth({
    appName: 'CarMarket',
    basePath: '/api/auth',
    // Without PUBLIC_URL, the address comes from the request URL, which our route builds from
    // the origin fixed at start-up: never from the Host header (mail links must not follow it).
    ...(config.PUBLIC_URL ? { baseURL: config.PUBLIC_URL } : {}),
    secret,
    trustedOrigins: () => trustedOrigins(),
    database: drizzleAdapter(db, {
      provider: 'pg',
      schema: { user, session, account, verification },
    }),
    telemetry: { enabled: false },
    // Into our structured log; a failed sign-in is routine, so only warnings of substance show.
    logger: {
      level: 'error',
      // Its errors without a failed statement's values (tokens, addresses: decision 040).
      log: (level, message, ...args) =>
        log[level]({ args: args.map((arg) => errorForLog(arg)) }, message),
    },
    // Our own limiter (per account and per IP, shared through Redis) guards sign-in instead.
    rateLimit: { enabled: false },
    advanced: {
      // better-auth turns its origin checks off when NODE_ENV=test; ours run tests as in production.
      disableOriginCheck: false,
      database: { generateId: 'uuid' },
      useSecureCookies: config.secure,
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
      // The caller's address as Fastify reads it (X-Forwarded-For only with TRUST_PROXY): our
      // route hands better-auth a request of its own making, which has no socket to ask.
      ipAddress: { ipAddressHeaders: [CLIENT_IP_HEADER] },
      // Reset, confirmation and change-of-address mail are sent after the answer (see above).
      backgroundTasks: { handler: inBackground },
    },
    user: {
      additionalFields: {
        roles: { type: 'string[]', required: false, input: false },
        phone: { type: 'string', required: false, input: true },
        verified: { type: 'boolean', required: false, input: false, defaultValue: false },
        deletedAt: { type: 'date', required: false, input: false },
      },
      // A link goes to the new address (sendVerificationEmail below) and a notice to the old
      // one (the auth route, on every 200); the address changes only when the link is opened.
      changeEmail: { enabled: true },
      deleteUser: {
        enabled: true,
        // The one code path that deletes people, the admin's too; better-auth has checked the
        // password or the mailed link. Its own deletion of the row is refused below.
        async beforeDelete(person) {
          try {
            await deleteAccount(db, mailer, { by: 'self' }, person.id, {
              holdDays: config.DELETED_ACCOUNT_HOLD_DAYS,
              events,
            });
          } catch (error) {
            throw asAPIError(error);
          }
        },
      },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 3600,
      updateAge: 24 * 3600,
      // No "fresh session" rule: it would hide the devices list from a session older than a
      // day. Deleting an account asks for the password or a mailed link instead (account-flows.ts).
      freshAge: 0,
    },
    emailVerification: {
      sendOnSignUp: true,
      autoSignInAfterVerification: false,
      expiresIn: VERIFY_LINK_HOURS * 3600,
      // Sent after the answer, as all account mail: a caller cannot time whether it went.
      // For a change of address, `person.email` is the new address and the row the old one;
      // the notice to the old one is sent by the auth route, whether or not a link went.
      async sendVerificationEmail({ user: person, token }) {
        inBackground(
          (async () => {
            const [row] = await db
              .select({ email: user.email, name: user.name })
              .from(user)
              .where(and(eq(user.id, person.id), isNull(user.deletedAt)));
            if (!row) return;
            const confirming = row.email.toLowerCase() === person.email.toLowerCase();
            await mailer.send(
              confirming
                ? verifyEmailMail(row, verifyLink(token, `${SETTINGS_PATH}?email=confirmed`))
                : emailChangeConfirmation(
                    { name: row.name, newEmail: person.email },
                    verifyLink(token, `${SETTINGS_PATH}?email=changed`),
                  ),
            );
          })(),
        );
      },
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      password: passwords,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      // The sessions are gone by now; their live message streams end with them, on every
      // process ("this wasn't me" must shut an intruder out at once).
      async onPasswordReset({ user: person }) {
        live.endRevokedStreamsOf(person.id);
      },
      resetPasswordTokenExpiresIn: 3600,
      async sendResetPassword({ user: person, url }) {
        // A deleted account keeps its address for a while; it gets no mail, and the answer is
        // the same as for any address (no discovery).
        const [row] = await db
          .select({ deletedAt: user.deletedAt })
          .from(user)
          .where(eq(user.id, person.id));
        if (!row || row.deletedAt) return;
        await mailer.send(
          passwordChangedMail.getStore()
            ? passwordChangedNotice(person, url, `${siteOrigin()}/forgot-password`)
            : resetPasswordMail(person, url),
        );
      },
    },
    databaseHooks: {
      user: {
        // People are never removed, only marked deleted (decision 012); account-deletion.ts
        // has done that when better-auth's delete-user gets here.
        delete: { before: async () => false },
        update: {
          // better-auth changes an address only when the link mailed to the new one is opened:
          // that proves the new address, and it must still be free (someone may have taken it).
          async before(data) {
            if (typeof data.email !== 'string') return;
            const [taken] = await db
              .select({ id: user.id })
              .from(user)
              .where(eq(sql`lower(${user.email})`, data.email.toLowerCase()));
            if (taken) {
              throw new APIError('BAD_REQUEST', {
                code: 'USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL',
                message: 'An account with this email already exists.',
              });
            }
            return { data: { ...data, emailVerified: true } };
          },
        },
      },
      session: {
        create: {
          // A deleted user can no longer start a session, whichever way they sign in; the
          // message says when the address is free for a new account (decision 012).
          async before(newSession) {
            const [owner] = await db
              .select({ deletedAt: user.deletedAt })
              .from(user)
              .where(eq(user.id, newSession.userId));
            if (owner?.deletedAt) {
              throw new APIError('FORBIDDEN', {
                code: 'USER_DISABLED',
                message: deletedAccountSignInMessage(
                  owner.deletedAt,
                  config.DELETED_ACCOUNT_HOLD_DAYS,
                ),
              });
            }
          },
        },
      },
    },
    plugins: [
      magicLink({
        // Signing in by link is for accounts that exist; registering asks for more (a role).
        disableSignUp: true,
        expiresIn: EMAIL_LINK_MINUTES * 60,
        storeToken: 'hashed',
        async sendMagicLink({ email, url }) {
          inBackground(
            (async () => {
              // No account (or a deleted one): no mail, and the same answer (no discovery).
              const [row] = await db
                .select({ email: user.email, name: user.name })
                .from(user)
                .where(
                  and(eq(sql`lower(${user.email})`, email.toLowerCase()), isNull(user.deletedAt)),
                );
              if (row) await mailer.send(signInLinkMail(row, url, EMAIL_LINK_MINUTES));
            })(),
          );
        },
      }),
      ...(google
        ? [
            genericOAuth({
              config: [
                {
                  providerId: 'google',
                  clientId: config.GOOGLE_CLIENT_ID!,
                  clientSecret: config.GOOGLE_CLIENT_SECRET!,
                  authorizationUrl: config.GOOGLE_AUTHORIZATION_URL,
                  tokenUrl: config.GOOGLE_TOKEN_URL,
                  userInfoUrl: config.GOOGLE_USERINFO_URL,
                  scopes: ['openid', 'email', 'profile'],
                  pkce: true,
                  // Google's user-info answer names the account by `sub` (OpenID Connect), not `id`.
                  accountSubject: ({ profile }) => String(profile.sub ?? profile.id ?? ''),
                },
              ],
            }),
          ]
        : []),
    ],
  });
}

/** An error of ours thrown inside a better-auth hook, as better-auth answers errors. */
function asAPIError(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const status =
    error.statusCode === 404 ? 'NOT_FOUND' : error.statusCode === 403 ? 'FORBIDDEN' : 'BAD_REQUEST';
  return new APIError(status, {
    code: error.code.toUpperCase().replaceAll('-', '_'),
    message: error.message,
  });
}

/**
 * Mails the "your password was changed" notice, whose "this wasn't me" link is a real reset link
 * made by better-auth (through `handle`, the auth route's way into better-auth).
 */
export async function notifyPasswordChanged(
  handle: (request: Request) => Promise<Response>,
  siteOrigin: string,
  email: string,
): Promise<void> {
  await passwordChangedMail.run(true, () =>
    handle(
      new Request(`${siteOrigin}/api/auth/request-password-reset`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: siteOrigin },
        body: JSON.stringify({ email, redirectTo: '/reset-password' }),
      }),
    ),
  );
}

export type Auth = ReturnType<typeof createAuth>;
