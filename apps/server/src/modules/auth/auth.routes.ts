import { randomBytes } from 'node:crypto';
import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
  DeviceSessionListSchema,
  EmailSchema,
  MagicLinkSchema,
  NameSchema,
  NewPasswordSchema,
  PASSWORD_MAX_LENGTH,
  ReturnPathSchema,
  RevokeSessionSchema,
  SendVerificationSchema,
  SignInOptionsSchema,
  tokenSchema,
  UpdateProfileSchema,
  type ErrorCode,
  messageForCode,
} from '@carmarket/shared';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { AppError, forbidden } from '../../lib/errors.ts';
import { formatWait, tooManyRequests, type CounterStore } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { Mailer } from '../../adapters/mail.ts';
import type { Storage } from '../../adapters/storage.ts';
import type { LiveHub } from '../messages/live.ts';
import { resolveOwnUploads } from '../uploads/uploads.service.ts';
import { userPolicy } from '../users/users.policy.ts';
import { deleteAccountLinkMail, emailChangeNotice } from './account-mail.ts';
import {
  CLIENT_IP_HEADER,
  googleSignInEnabled,
  notifyPasswordChanged,
  SETTINGS_PATH,
  type Auth,
} from './auth.ts';
import {
  deletedAccountSignUpMessage,
  heldByDeletedAccount,
  releaseDeletedEmails,
} from './deleted-accounts.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import type { KnownBrowsers } from './known-browsers.ts';
import { presentDeviceSession, presentSignInMethods } from './sessions.presenter.ts';
import { liveSessionsOf, ownSessionToken, passwordHashOf } from './settings.service.ts';

/**
 * better-auth's error codes, in the spec's client codes (spec section 8). `ownMessage`: the
 * message is one our own hooks wrote, so it is passed on.
 */
const AUTH_ERRORS: Record<
  string,
  { status: number; code: ErrorCode; message?: string; ownMessage?: boolean }
> = {
  INVALID_EMAIL_OR_PASSWORD: { status: 401, code: 'wrong-password' },
  INVALID_PASSWORD: { status: 401, code: 'wrong-password' },
  USER_NOT_FOUND: { status: 401, code: 'wrong-password' },
  CREDENTIAL_ACCOUNT_NOT_FOUND: { status: 401, code: 'wrong-password' },
  USER_ALREADY_EXISTS: { status: 409, code: 'email-already-in-use' },
  USER_ALREADY_EXISTS_USE_ANOTHER_EMAIL: { status: 409, code: 'email-already-in-use' },
  INVALID_EMAIL: { status: 400, code: 'invalid-email' },
  PASSWORD_TOO_SHORT: { status: 400, code: 'weak-password' },
  PASSWORD_TOO_LONG: { status: 400, code: 'weak-password' },
  INVALID_TOKEN: { status: 400, code: 'invalid-action-code' },
  USER_DISABLED: { status: 403, code: 'user-disabled', ownMessage: true },
  SESSION_EXPIRED: { status: 401, code: 'requires-recent-login' },
  EMAIL_ALREADY_VERIFIED: {
    status: 409,
    code: 'conflict',
    message: 'Your email address is confirmed already.',
  },
  FORBIDDEN: { status: 403, code: 'forbidden', ownMessage: true },
  NOT_FOUND: { status: 404, code: 'not-found', ownMessage: true },
};

/**
 * The settings calls that check the current password: a wrong one is the request's fault (400,
 * naming the field), not a sign-in that failed (401 would read as "signed out").
 */
const PASSWORD_FIELDS: Record<string, string> = {
  '/change-password': 'currentPassword',
  '/delete-user': 'password',
};

const SignUpBody = z.object({
  name: NameSchema,
  email: EmailSchema,
  password: NewPasswordSchema,
  callbackURL: ReturnPathSchema.optional(),
});
const SignInBody = z.object({
  email: EmailSchema,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
  callbackURL: ReturnPathSchema.optional(),
  rememberMe: z.boolean().optional(),
});
const ResetRequestBody = z.object({
  email: EmailSchema,
  redirectTo: ReturnPathSchema.optional(),
});
const ResetBody = z.object({ newPassword: NewPasswordSchema, token: tokenSchema({ max: 200 }) });
/** Google sign-in (the only provider): where it comes back to are paths of this site. */
const SocialSignInBody = z.object({
  provider: z.literal('google'),
  callbackURL: ReturnPathSchema.optional(),
  errorCallbackURL: ReturnPathSchema.optional(),
  newUserCallbackURL: ReturnPathSchema.optional(),
});

/**
 * Our checks on the body of the calls that take input, by path below `/api/auth`. What passes is
 * what better-auth gets: fields not named here never reach it.
 */
const BODY_RULES: Record<string, z.ZodType> = {
  '/sign-up/email': SignUpBody,
  '/sign-in/email': SignInBody,
  '/sign-in/social': SocialSignInBody,
  '/request-password-reset': ResetRequestBody,
  '/forget-password': ResetRequestBody,
  '/reset-password': ResetBody,
  '/update-user': UpdateProfileSchema,
  '/change-password': ChangePasswordSchema,
  '/change-email': ChangeEmailSchema,
  '/send-verification-email': SendVerificationSchema,
  '/sign-in/magic-link': MagicLinkSchema,
  '/delete-user': DeleteAccountSchema,
  '/revoke-session': RevokeSessionSchema,
};

/** The settings calls, for the person signed in by the session cookie only (as better-auth reads). */
const SIGNED_IN_CALLS = new Set([
  'POST /update-user',
  'POST /change-password',
  'POST /change-email',
  'GET /list-sessions',
  'GET /list-accounts',
  'POST /revoke-session',
  'POST /revoke-other-sessions',
  'POST /delete-user',
]);

/**
 * Every call of better-auth's that this site uses; the rest (`/verify-password`, which would be
 * an unlimited password oracle, account linking, tokens) answer 404 as unknown addresses do.
 */
const FORWARDED_CALLS = new Set([
  ...SIGNED_IN_CALLS,
  'GET /get-session',
  'POST /sign-up/email',
  'POST /sign-in/email',
  'POST /sign-out',
  'POST /request-password-reset',
  'POST /forget-password',
  'POST /reset-password',
  'POST /send-verification-email',
  'GET /verify-email',
  'POST /sign-in/magic-link',
  'GET /magic-link/verify',
  'POST /sign-in/social',
  'GET /callback/google',
  'GET /error',
]);
/** The page a mailed reset link opens first (`GET /reset-password/<token>`), then our form. */
const RESET_LINK = /^\/reset-password\/[A-Za-z0-9_-]+$/;

/** Query parameters naming where a link lands; only paths of this site are accepted. */
const RETURN_PARAMS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL', 'redirectTo'];

/** How long the link that confirms deleting an account without a password works. */
const DELETE_LINK_MINUTES = 60;

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A limit: at most `max` counts of `key` in a window (the sign-in window unless given). */
type Limit = [key: string, max: number, windowMs?: number];

const tooManyAttempts = (wait: string) => `Too many attempts. Please try again in ${wait}.`;
/** Only password guesses are held: the other ways in are counted apart, so they still work. */
const tooManyWrongPasswords = (wait: string) =>
  `Too many wrong passwords. Please try again in ${wait}, or sign in with a link we email you, or reset your password: both still work.`;
const tooManySignUps = (wait: string) =>
  `Too many accounts have been made from your network. Please try again in ${wait}.`;

function validationError(error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'body';
  const code: ErrorCode =
    field === 'password' || field === 'newPassword'
      ? 'weak-password'
      : field === 'email' || field === 'newEmail'
        ? 'invalid-email'
        : 'validation-failed';
  return new AppError(400, code, issue?.message ?? messageForCode(code), { field });
}

export interface AuthRouteDeps {
  auth: Auth;
  db: Db;
  counters: CounterStore;
  knownBrowsers: KnownBrowsers;
  config: Config;
  mailer: Mailer;
  storage: Storage;
  /** The site's own origin (PUBLIC_URL, or fixed at start-up): never taken from a request. */
  siteOrigin: () => string;
  /** Live message streams: those of a session that ends close with it, on every process. */
  live: Pick<LiveHub, 'endRevokedStreamsOf'>;
  /** Where notices sent after the answer run, so closing the server waits for them. */
  background: BackgroundWork;
}

/** The calls after which some of the caller's sessions have ended. */
const ENDS_SESSIONS = new Set([
  'POST /sign-out',
  'POST /revoke-session',
  'POST /revoke-other-sessions',
  'POST /change-password',
]);

/** better-auth's paths are plain segments: no dots, escapes, empty segments or trailing slash. */
const CANONICAL_PATH = /^\/api\/auth(\/[A-Za-z0-9_-]+)+$/;

/**
 * Mounts better-auth at `/api/auth/*`. Fastify has already parsed the body (better-auth issue
 * 599), so it is passed on re-serialised; every `Set-Cookie` is copied; errors are turned into
 * our `{error:{code,message}}` shape with the spec's codes; sign-in, password checks and every
 * call that sends mail are rate limited per account and per IP. Where a settings call needed
 * more than better-auth gives, it is wrapped here (decision 016).
 */
export async function authRoutes(
  app: FastifyInstance,
  {
    auth,
    db,
    counters,
    knownBrowsers,
    config,
    mailer,
    storage,
    siteOrigin,
    live,
    background,
  }: AuthRouteDeps,
) {
  const windowMs = config.SIGN_IN_LIMIT_WINDOW_SECONDS * 1000;
  const holdDays = config.DELETED_ACCOUNT_HOLD_DAYS;
  const google = googleSignInEnabled(config);
  const authContext = await auth.$context;

  app.get(
    '/sign-in-options',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Which ways of signing in this server offers besides a password, whether booking and listing need a confirmed address, and how long a deleted account keeps its address',
        response: { 200: SignInOptionsSchema },
      },
    },
    async () => ({
      google,
      emailLink: true,
      requireVerifiedEmail: config.REQUIRE_VERIFIED_EMAIL,
      deletedAccountHoldDays: holdDays,
    }),
  );

  /**
   * Counts one attempt against every limit before it is made, so parallel requests cannot all
   * slip under a limit; answers the keys it counted, or 429 saying `message` (taking its own
   * counts back).
   */
  async function reserve(
    limits: Limit[],
    message: (wait: string) => string = tooManyAttempts,
  ): Promise<string[]> {
    const taken: string[] = [];
    for (const [key, max, limitWindowMs = windowMs] of limits) {
      const state = await counters.hit(key, limitWindowMs);
      taken.push(key);
      if (state.count > max) {
        await Promise.all(taken.map((k) => counters.undo(k)));
        throw tooManyRequests(state.resetAt, (seconds) => message(formatWait(seconds)));
      }
    }
    return taken;
  }

  /**
   * Mail costs something whatever its outcome, so every request that may send one counts, per
   * address it would go to and per IP, whether or not the address has an account: the answer,
   * 429 included, is the same either way.
   */
  async function reserveMail(ip: string, addresses: string[]): Promise<void> {
    await reserve([
      [`mail-ip:${ip}`, config.SIGN_IN_LIMIT_PER_IP],
      ...[...new Set(addresses.map((a) => a.toLowerCase()))].map(
        (address) => [`mail:${address}`, config.SIGN_IN_LIMIT_PER_ACCOUNT] as [string, number],
      ),
    ]);
  }

  /**
   * Guessing a password counts against its account as a failed sign-in does (decision 006):
   * per account and address, and per account from everywhere; `perIp` adds the address's own
   * limit (sign-in from an unknown browser).
   */
  function passwordGuessLimits(email: string, ip: string, perIp: boolean) {
    const limits: Limit[] = [
      [`fail:${email}:${ip}`, config.SIGN_IN_LIMIT_PER_ACCOUNT],
      [`fail-all:${email}`, config.SIGN_IN_LIMIT_ACCOUNT_TOTAL],
    ];
    if (perIp) limits.unshift([`fail-ip:${ip}`, config.SIGN_IN_LIMIT_PER_IP]);
    return limits;
  }

  /** Hands a request to better-auth at the site's own address (never the Host header's). */
  function handle(request: Request): Promise<Response> {
    return auth.handler(request);
  }

  async function forward(request: FastifyRequest, reply: FastifyReply, subpath: string) {
    const endpoint = subpath.toLowerCase();
    const call = `${request.method} ${endpoint}`;
    const isPost = request.method === 'POST';
    if (!FORWARDED_CALLS.has(call) && !(request.method === 'GET' && RESET_LINK.test(endpoint))) {
      throw new AppError(404, 'not-found');
    }
    // A link's landing place must be a page of this site (no open redirect through a mail link).
    const query = new URL(request.url, siteOrigin()).searchParams;
    for (const name of RETURN_PARAMS) {
      const wanted = query.get(name);
      if (wanted !== null && !ReturnPathSchema.safeParse(wanted).success) {
        throw new AppError(400, 'validation-failed', 'Must be a path on this site', {
          field: name,
        });
      }
    }

    // The settings calls: anonymous callers learn nothing of the input rules (as preValidation).
    let caller: SessionUser | null = null;
    if (SIGNED_IN_CALLS.has(call)) {
      caller = await app.cookieSession(request, reply);
      if (!caller) throw new AppError(401, 'unauthenticated');
    } else if (call === 'POST /sign-out') {
      caller = await app.cookieSession(request, reply);
    }

    const rule = isPost ? BODY_RULES[endpoint] : undefined;
    let body: unknown = request.body;
    if (rule) {
      const parsed = rule.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      body = parsed.data;
    }
    const email = (body as { email?: string } | null)?.email?.toLowerCase();

    // Each account brings fresh limits of its own, so the accounts one IP makes are limited.
    // Counted before the account is made; kept unless the server failed: a sign-up refused for
    // a taken address still tells whether it has an account, so probing addresses counts too.
    let signUpKeys: string[] = [];
    if (call === 'POST /sign-up/email') {
      signUpKeys = await reserve(
        [
          [`signup-ip:${request.ip}`, config.SIGN_UP_LIMIT_PER_IP, HOUR_MS],
          [`signup-ip-day:${request.ip}`, config.SIGN_UP_LIMIT_PER_IP_PER_DAY, DAY_MS],
        ],
        tooManySignUps,
      );
    }

    // Without credentials better-auth would log a "Provider not found" error for a client's call.
    if (call === 'POST /sign-in/social' && !google) {
      throw new AppError(404, 'not-found', 'Google sign-in is not set up on this server.');
    }
    // A deleted account holds its address for a while, then frees it (decision 012).
    if (call === 'POST /sign-up/email' && email) {
      const deletedAt = await heldByDeletedAccount(db, email, holdDays);
      if (deletedAt) {
        throw new AppError(
          409,
          'email-already-in-use',
          deletedAccountSignUpMessage(deletedAt, holdDays),
          { field: 'email' },
        );
      }
    }

    // Sign-in counts failures only (a shared office address is not locked out by its own people);
    // a guess is counted per address, per account and address, and per account from everywhere.
    // A browser that has signed in to this account before is held by the account's limits only,
    // so a right password gets in unless the account itself is under attack (decision 012).
    let failureKeys: string[] = [];
    if (call === 'POST /sign-in/email' && email) {
      failureKeys = await reserve(
        passwordGuessLimits(email, request.ip, !knownBrowsers.knows(request.headers.cookie, email)),
        tooManyWrongPasswords,
      );
    }

    switch (call) {
      case 'POST /request-password-reset':
      case 'POST /forget-password':
      case 'POST /sign-in/magic-link':
      case 'POST /send-verification-email':
        if (email) await reserveMail(request.ip, [email]);
        break;
      case 'POST /change-email': {
        const { newEmail, currentPassword, callbackURL } = body as z.infer<
          typeof ChangeEmailSchema
        >;
        if (newEmail.toLowerCase() === caller!.email.toLowerCase()) {
          throw new AppError(400, 'validation-failed', 'This is your address already.', {
            field: 'newEmail',
          });
        }
        await checkCurrentPassword(caller!, currentPassword, request.ip, 'currentPassword');
        // Both mailboxes get mail: the new one the link, the old one a notice.
        await reserveMail(request.ip, [caller!.email, newEmail]);
        body = { newEmail, ...(callbackURL ? { callbackURL } : {}) };
        break;
      }
      case 'POST /change-password':
        // Every other session ends, and with them their bearer tokens (issue 14).
        body = { ...(body as object), revokeOtherSessions: true };
        failureKeys = await reserve(passwordGuessLimits(caller!.email, request.ip, false));
        break;
      case 'POST /update-user':
        body = await withOwnPhoto(caller!, body as z.infer<typeof UpdateProfileSchema>);
        break;
      case 'POST /revoke-session':
        body = { token: await tokenOfOwnSession(caller!, (body as { id: string }).id) };
        break;
      case 'POST /delete-user': {
        const allowed = userPolicy.canDeleteSelf(caller!);
        if (!allowed.ok) throw forbidden(allowed.reason);
        const given = body as z.infer<typeof DeleteAccountSchema>;
        if (given.token) {
          body = { token: given.token };
          break;
        }
        if (await hasPassword(caller!.id)) {
          if (!given.password) {
            throw new AppError(400, 'validation-failed', 'Enter your password', {
              field: 'password',
            });
          }
          body = { password: given.password };
          failureKeys = await reserve(passwordGuessLimits(caller!.email, request.ip, false));
          break;
        }
        // No password to ask for (Google only): a link mailed to the account's address stands
        // in for it. better-auth would mail one to everyone if configured to, passwords or not.
        await reserveMail(request.ip, [caller!.email]);
        await mailDeleteLink(caller!);
        return reply
          .header('cache-control', 'no-store')
          .send({ success: true, message: 'Verification email sent' });
      }
    }

    // The address better-auth sees (and builds mail links from) is ours, never the Host header.
    const url = new URL(request.url, siteOrigin());
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && body != null;
    const headers = fromNodeHeaders(request.headers);
    headers.set('host', url.host);
    headers.set(CLIENT_IP_HEADER, request.ip);
    if (hasBody) headers.set('content-type', 'application/json');
    headers.delete('content-length');
    let response: Response;
    try {
      // A deleted account whose hold is over no longer answers to its address (decision 012).
      if (call === 'POST /sign-in/email' && email) await releaseDeletedEmails(db, holdDays, email);
      response = await handle(
        new Request(url, {
          method: request.method,
          headers,
          body: hasBody ? JSON.stringify(body) : undefined,
        }),
      );
    } catch (error) {
      await Promise.all([...failureKeys, ...signUpKeys].map((key) => counters.undo(key)));
      throw error;
    }
    if (response.status >= 500) await Promise.all(signUpKeys.map((key) => counters.undo(key)));

    const text = await response.text();
    const upstreamCode = response.status >= 400 ? codeIn(text) : undefined;
    // Only a wrong password is a failure; the reserved attempt is given back otherwise.
    const wrongPassword =
      response.status === 401 ||
      (endpoint in PASSWORD_FIELDS && upstreamCode === 'INVALID_PASSWORD');
    if (failureKeys.length > 0 && !wrongPassword) {
      await Promise.all(failureKeys.map((key) => counters.undo(key)));
    }

    if (response.status >= 400) {
      // A link opened from a mail lands on a page, not on an error in JSON.
      const back = request.method === 'GET' ? errorLanding(url) : null;
      if (back) {
        back.searchParams.set('error', upstreamCode ?? 'INVALID_TOKEN');
        return reply.redirect(`${back.pathname}${back.search}`, 302);
      }
      throw authError(response.status, text, endpoint);
    }

    reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie' && name !== 'content-length' && name !== 'content-encoding') {
        reply.header(name, value);
      }
    });
    // better-auth writes its redirects on the site's own origin as full addresses; as paths they
    // keep the browser on the name it used (and with the cookie just set for that name).
    // A path a browser would read as another site (`//evil.example`) stays a full address.
    const location = response.headers.get('location');
    const asPath = location?.startsWith(`${siteOrigin()}/`)
      ? location.slice(siteOrigin().length)
      : null;
    if (asPath && !/^\/[/\\]/.test(asPath)) reply.header('location', asPath);
    const cookies = response.headers.getSetCookie();
    // The right password was given and a session began: this browser is known to the account
    // from now on. (better-auth can answer 200 without a session, e.g. a sign-up of a taken
    // address when verification is required, which must not mark the browser.)
    const sessionBegan = cookies.some((cookie) => /session_token=[^;]/.test(cookie));
    const signedInWithPassword = call === 'POST /sign-in/email' || call === 'POST /sign-up/email';
    if (signedInWithPassword && email && response.status === 200 && sessionBegan) {
      cookies.push(knownBrowsers.remember(request.headers.cookie, email));
    }
    if (cookies.length > 0) reply.header('set-cookie', cookies);

    if (call === 'GET /list-sessions' && response.status === 200) {
      reply.header('cache-control', 'no-store');
      return reply.send(await devicesOf(caller!, text));
    }
    if (call === 'GET /list-accounts' && response.status === 200) {
      reply.header('cache-control', 'no-store');
      return reply.send(presentSignInMethods(JSON.parse(text)));
    }
    // A live stream of a session that has ended closes now, not at its next check.
    if (ENDS_SESSIONS.has(call) && caller && response.status === 200) {
      live.endRevokedStreamsOf(caller.id);
    }
    if (call === 'POST /change-email' && response.status === 200) {
      // The notice goes whether or not the new address has an account (better-auth mails that
      // address nothing then), so the old mailbox cannot tell which addresses have accounts.
      const { newEmail } = body as { newEmail: string };
      void background.run('the change-of-address notice', () =>
        mailer.send(emailChangeNotice(caller!, newEmail, `${siteOrigin()}/forgot-password`)),
      );
    }
    if (call === 'POST /change-password' && response.status === 200) {
      void background.run('the password-changed notice', () =>
        notifyPasswordChanged(handle, siteOrigin(), caller!.email),
      );
    }
    return reply.send(text.length > 0 ? withoutTokens(text) : null);
  }

  /** A profile photo must be one of the person's own uploads; its thumbnail is what is kept. */
  async function withOwnPhoto(person: SessionUser, body: z.infer<typeof UpdateProfileSchema>) {
    if (!body.image) return body;
    try {
      const [photo] = await resolveOwnUploads(db, storage, person.id, [body.image]);
      return { ...body, image: photo!.thumbUrl };
    } catch (error) {
      if (error instanceof AppError) {
        throw new AppError(400, 'validation-failed', 'Choose a photo you uploaded.', {
          field: 'image',
        });
      }
      throw error;
    }
  }

  /** The token better-auth revokes a session by, for one of the person's own sessions. */
  async function tokenOfOwnSession(person: SessionUser, id: string): Promise<string> {
    const token = await ownSessionToken(db, person.id, id);
    // Someone else's session is answered as one that does not exist (decision 008).
    if (!token) throw new AppError(404, 'not-found', 'That session has ended already.');
    return token;
  }

  async function hasPassword(userId: string): Promise<boolean> {
    return (await passwordHashOf(db, userId)) !== null;
  }

  /**
   * An account with a password must give it (`field` names it in the answer); a wrong one counts
   * as a guess against the account, as at sign-in. An account without one passes.
   */
  async function checkCurrentPassword(
    person: SessionUser,
    given: string | undefined,
    ip: string,
    field: string,
  ): Promise<void> {
    const hash = await passwordHashOf(db, person.id);
    if (hash === null) return;
    if (!given) {
      throw new AppError(400, 'validation-failed', 'Enter your current password', { field });
    }
    const keys = await reserve(passwordGuessLimits(person.email, ip, false));
    let right: boolean;
    try {
      right = await authContext.password.verify({ hash, password: given });
    } catch (error) {
      await Promise.all(keys.map((key) => counters.undo(key)));
      throw error;
    }
    if (!right) {
      throw new AppError(400, 'wrong-password', 'That is not your current password.', { field });
    }
    await Promise.all(keys.map((key) => counters.undo(key)));
  }

  /**
   * A link that confirms deleting an account without a password: a token better-auth's own
   * `/delete-user` consumes (`{ token }`), landing on the settings page. The token rides in the
   * fragment, which no server or log sees.
   */
  async function mailDeleteLink(person: SessionUser): Promise<void> {
    const token = randomBytes(24).toString('hex');
    await authContext.internalAdapter.createVerificationValue({
      identifier: `delete-account-${token}`,
      value: person.id,
      expiresAt: new Date(Date.now() + DELETE_LINK_MINUTES * 60_000),
    });
    await mailer.send(
      deleteAccountLinkMail(
        person,
        `${siteOrigin()}${SETTINGS_PATH}#delete=${token}`,
        DELETE_LINK_MINUTES,
      ),
    );
  }

  /** better-auth's list of the person's sessions, through our presenter (no tokens). */
  async function devicesOf(person: SessionUser, text: string) {
    const listed = (JSON.parse(text) as Array<{ id: string }>).map((entry) => entry.id);
    if (listed.length === 0) return [];
    const rows = await liveSessionsOf(db, person.id, listed);
    const devices = rows.map((row) => presentDeviceSession(row, person.sessionId));
    // This device first, then the most recently used.
    devices.sort(
      (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
    );
    return DeviceSessionListSchema.parse(devices);
  }

  app.route({
    method: ['GET', 'POST'],
    url: '/auth/*',
    schema: { hide: true },
    handler: (request, reply) => {
      const pathname = request.url.split('?')[0]!;
      // better-auth normalises `./`, `../` and escapes away; our rules must see what it acts on.
      if (!CANONICAL_PATH.test(pathname)) {
        throw new AppError(400, 'bad-request', 'The address is malformed.');
      }
      return forward(request, reply, pathname.slice('/api/auth'.length));
    },
  });
}

/**
 * better-auth's answer without its session tokens (sign-in, sign-up, get-session ...): the
 * cookie carries the session, and no script on a page needs it or may read it.
 */
function withoutTokens(text: string): string {
  if (!text.includes('"token"')) return text;
  try {
    return JSON.stringify(JSON.parse(text), (key, value: unknown) =>
      key === 'token' ? undefined : value,
    );
  } catch {
    return text;
  }
}

/** The code of better-auth's error answer, if it gave one. */
function codeIn(text: string): string | undefined {
  try {
    const code = (JSON.parse(text) as { code?: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Where a link opened from a mail (a GET) goes back to when it fails: its `errorCallbackURL`, or
 * else its `callbackURL`, when that is a path on this site; null otherwise.
 */
function errorLanding(url: URL): URL | null {
  const wanted = url.searchParams.get('errorCallbackURL') ?? url.searchParams.get('callbackURL');
  if (!wanted || !ReturnPathSchema.safeParse(wanted).success) return null;
  // Belt and braces: forward() has refused such parameters already.
  const landing = new URL(wanted, url.origin);
  return landing.origin === url.origin && !landing.pathname.startsWith('//') ? landing : null;
}

/** better-auth's error answer as ours; its 5xx stay 5xx (and are logged by the error handler). */
function authError(status: number, text: string, endpoint: string): Error {
  let upstream: { code?: string; message?: string } = {};
  try {
    upstream = JSON.parse(text);
  } catch {
    // not JSON: keep the status, use a generic message
  }
  const passwordField = PASSWORD_FIELDS[endpoint];
  if (passwordField && upstream.code === 'INVALID_PASSWORD') {
    return new AppError(400, 'wrong-password', 'That is not your current password.', {
      field: passwordField,
    });
  }
  if (passwordField && upstream.code === 'CREDENTIAL_ACCOUNT_NOT_FOUND') {
    return new AppError(
      400,
      'bad-request',
      'This account has no password yet (it signs in with Google). Use "Forgot password" to set one.',
    );
  }
  const mapped = upstream.code ? AUTH_ERRORS[upstream.code] : undefined;
  if (mapped) {
    const message = mapped.ownMessage ? upstream.message || undefined : mapped.message;
    return new AppError(mapped.status, mapped.code, message);
  }
  if (status >= 500) return new Error(`auth failed with ${status}: ${text.slice(0, 200)}`);
  const code = STATUS_CODES[status] ?? 'bad-request';
  return new AppError(status, code, upstream.message || messageForCode(code));
}

const STATUS_CODES: Record<number, ErrorCode> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  429: 'too-many-requests',
};
