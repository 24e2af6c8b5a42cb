import { betterAuth } from 'better-auth';
import { APIError } from 'better-auth/api';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { genericOAuth } from 'better-auth/plugins/generic-oauth';
import { eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { account, session, user, verification } from '../../db/schema.ts';
import type { Mailer } from '../../plugins/mail.ts';

export const SESSION_DAYS = 7;

export interface AuthDeps {
  log: FastifyBaseLogger;
  config: Config;
  db: Db;
  mailer: Mailer;
  secret: string;
  /** The origins whose pages may call the auth endpoints (and be sent back to after them). */
  trustedOrigins: () => string[];
}

/** better-auth, storing users and sessions in our database through Drizzle. */
export function createAuth({ log, config, db, mailer, secret, trustedOrigins }: AuthDeps) {
  const google = config.GOOGLE_CLIENT_ID && config.GOOGLE_CLIENT_SECRET;
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
      log: (level, message, ...args) => log[level]({ args }, message),
    },
    // Our own limiter (per account and per IP, shared through Redis) guards sign-in instead.
    rateLimit: { enabled: false },
    advanced: {
      // better-auth turns its origin checks off when NODE_ENV=test; ours run tests as in production.
      disableOriginCheck: false,
      database: { generateId: 'uuid' },
      useSecureCookies: config.secure,
      defaultCookieAttributes: { sameSite: 'lax', httpOnly: true },
      ipAddress: { ipAddressHeaders: config.TRUST_PROXY ? ['x-forwarded-for'] : [] },
    },
    user: {
      additionalFields: {
        role: { type: 'string', required: false, input: false },
        verified: { type: 'boolean', required: false, input: false, defaultValue: false },
        deletedAt: { type: 'date', required: false, input: false },
      },
    },
    session: {
      expiresIn: SESSION_DAYS * 24 * 3600,
      updateAge: 24 * 3600,
    },
    emailAndPassword: {
      enabled: true,
      minPasswordLength: 8,
      maxPasswordLength: 128,
      autoSignIn: true,
      revokeSessionsOnPasswordReset: true,
      resetPasswordTokenExpiresIn: 3600,
      async sendResetPassword({ user: person, url }) {
        await mailer.send({
          to: person.email,
          subject: 'Reset your CarMarket password',
          text: [
            `Hello ${person.name},`,
            '',
            'Someone (we hope you) asked to reset the password of your CarMarket account.',
            'Open this link within an hour to choose a new password:',
            '',
            url,
            '',
            'If you did not ask for this, ignore this mail; your password stays as it is.',
          ].join('\n'),
        });
      },
    },
    databaseHooks: {
      session: {
        create: {
          // A deleted user can no longer start a session, whichever way they sign in.
          async before(newSession) {
            const [owner] = await db
              .select({ deletedAt: user.deletedAt })
              .from(user)
              .where(eq(user.id, newSession.userId));
            if (owner?.deletedAt) {
              throw new APIError('FORBIDDEN', {
                code: 'USER_DISABLED',
                message: 'This account has been disabled.',
              });
            }
          },
        },
      },
    },
    plugins: google
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
      : [],
  });
}

export type Auth = ReturnType<typeof createAuth>;
