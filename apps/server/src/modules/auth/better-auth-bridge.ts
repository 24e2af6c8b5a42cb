import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { messageForCode, ReturnPathSchema, type ErrorCode } from '@carmarket/shared';
import { AppError } from '../../lib/errors.ts';
import { nothingToGiveBack, type GiveBack } from '../../lib/rate-limit.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import { CLIENT_IP_HEADER, type Auth } from './auth.ts';
import type { KnownBrowsers } from './known-browsers.ts';

/*
 * The bridge to better-auth at `/api/auth/*`. Fastify has already parsed the body (better-auth
 * issue 599), so it is passed on re-serialised; every `Set-Cookie` is copied; errors are turned
 * into our `{error:{code,message}}` shape with the spec's codes. What runs around each call
 * (limits, checks, our own answers) is its row in the table of calls (auth.routes.ts).
 */

/** One call on its way through the bridge. `before` may change `body`: better-auth gets that. */
export interface AuthCall {
  request: FastifyRequest;
  /** The person signed in by the session cookie, for calls that ask for one. */
  caller: SessionUser | null;
  body: unknown;
  /** The body's `email`, in lower case. */
  email: string | undefined;
  /** Counts of password guesses: kept when the password was wrong, else given back. */
  guesses: GiveBack;
  /** Counts of sign-ups: kept unless the server failed. */
  signUps: GiveBack;
}

/** An answer of our own, sent instead of better-auth's (never stored by a cache). */
export interface OwnAnswer {
  answer: unknown;
}

export interface CallRule {
  /** `required`: for the person signed in by the session cookie only (as better-auth reads). */
  signedIn?: 'required' | 'optional';
  /** Our checks on the body; what passes is what better-auth gets: other fields never reach it. */
  body?: z.ZodType;
  /** Runs before better-auth is asked; an answer of its own means better-auth is not asked. */
  before?: (call: AuthCall) => Promise<void | OwnAnswer>;
  /** Runs after better-auth answered 200, with its answer; may answer instead. */
  after?: (call: AuthCall, text: string) => Promise<void | OwnAnswer> | void;
  /**
   * The call checks the current password: a wrong one is the request's fault (400, naming this
   * field), not a sign-in that failed (401 would read as "signed out").
   */
  passwordField?: string;
  /** A session that begins with this call marks the browser as known to the account. */
  remembersBrowser?: boolean;
}

/** The page a mailed reset link opens first (`GET /reset-password/<token>`), then our form. */
const RESET_LINK = /^\/reset-password\/[A-Za-z0-9_-]+$/;

/** Query parameters naming where a link lands; only paths of this site are accepted. */
const RETURN_PARAMS = ['callbackURL', 'errorCallbackURL', 'newUserCallbackURL', 'redirectTo'];

/** better-auth's paths are plain segments: no dots, escapes, empty segments or trailing slash. */
const CANONICAL_PATH = /^\/api\/auth(\/[A-Za-z0-9_-]+)+$/;

/**
 * Mounts the bridge. `calls` is every call of better-auth's this site uses, by method and path
 * below `/api/auth`; the rest (`/verify-password`, which would be an unlimited password oracle,
 * account linking, tokens) answer 404 as unknown addresses do.
 */
export function mountBetterAuth(
  app: FastifyInstance,
  {
    auth,
    calls,
    knownBrowsers,
    siteOrigin,
  }: {
    auth: Auth;
    calls: Record<string, CallRule>;
    knownBrowsers: KnownBrowsers;
    siteOrigin: () => string;
  },
) {
  async function forward(request: FastifyRequest, reply: FastifyReply, subpath: string) {
    const endpoint = subpath.toLowerCase();
    const name = `${request.method} ${endpoint}`;
    const resetLink = request.method === 'GET' && RESET_LINK.test(endpoint);
    const rule = Object.hasOwn(calls, name) ? calls[name]! : resetLink ? {} : undefined;
    if (!rule) throw new AppError(404, 'not-found');
    // A link's landing place must be a page of this site (no open redirect through a mail link).
    const query = new URL(request.url, siteOrigin()).searchParams;
    for (const param of RETURN_PARAMS) {
      const wanted = query.get(param);
      if (wanted !== null && !ReturnPathSchema.safeParse(wanted).success) {
        throw new AppError(400, 'validation-failed', 'Must be a path on this site', {
          field: param,
        });
      }
    }

    // The settings calls: anonymous callers learn nothing of the input rules (as preValidation).
    const caller = rule.signedIn ? await app.cookieSession(request, reply) : null;
    if (rule.signedIn === 'required' && !caller) throw new AppError(401, 'unauthenticated');

    let body: unknown = request.body;
    if (rule.body && request.method === 'POST') {
      const parsed = rule.body.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      body = parsed.data;
    }
    const email = (body as { email?: string } | null)?.email?.toLowerCase();
    const call: AuthCall = {
      request,
      caller,
      body,
      email,
      guesses: nothingToGiveBack,
      signUps: nothingToGiveBack,
    };
    const own = await rule.before?.(call);
    if (own) return reply.header('cache-control', 'no-store').send(own.answer);

    // The address better-auth sees (and builds mail links from) is ours, never the Host header.
    const url = new URL(request.url, siteOrigin());
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && call.body != null;
    const headers = fromNodeHeaders(request.headers);
    headers.set('host', url.host);
    headers.set(CLIENT_IP_HEADER, request.ip);
    if (hasBody) headers.set('content-type', 'application/json');
    headers.delete('content-length');
    let response: Response;
    try {
      response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: hasBody ? JSON.stringify(call.body) : undefined,
        }),
      );
    } catch (error) {
      await Promise.all([call.guesses(), call.signUps()]);
      throw error;
    }
    if (response.status >= 500) await call.signUps();

    const text = await response.text();
    const upstreamCode = response.status >= 400 ? codeIn(text) : undefined;
    // Only a wrong password is a failure; the reserved attempt is given back otherwise.
    const wrongPassword =
      response.status === 401 ||
      (rule.passwordField !== undefined && upstreamCode === 'INVALID_PASSWORD');
    if (!wrongPassword) await call.guesses();

    if (response.status >= 400) {
      // A link opened from a mail lands on a page, not on an error in JSON.
      const back = request.method === 'GET' ? errorLanding(url) : null;
      if (back) {
        back.searchParams.set('error', upstreamCode ?? 'INVALID_TOKEN');
        return reply.redirect(`${back.pathname}${back.search}`, 302);
      }
      throw authError(response.status, text, rule.passwordField);
    }

    reply.status(response.status);
    response.headers.forEach((value, header) => {
      if (header !== 'set-cookie' && header !== 'content-length' && header !== 'content-encoding') {
        reply.header(header, value);
      }
    });
    // An account's answers are no cache's to keep; and a sign-up's reads as our own answer to a
    // taken address does (sign-up-answers.ts), header for header.
    if (!response.headers.has('cache-control')) reply.header('cache-control', 'no-store');
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
    if (rule.remembersBrowser && email && response.status === 200 && sessionBegan) {
      cookies.push(knownBrowsers.remember(request.headers.cookie, email));
    }
    if (cookies.length > 0) reply.header('set-cookie', cookies);

    if (response.status === 200) {
      const answered = await rule.after?.(call, text);
      if (answered) return reply.header('cache-control', 'no-store').send(answered.answer);
    }
    return reply.send(text.length > 0 ? withoutTokens(text) : null);
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

const STATUS_CODES: Record<number, ErrorCode> = {
  401: 'unauthenticated',
  403: 'forbidden',
  404: 'not-found',
  429: 'too-many-requests',
};

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
function authError(status: number, text: string, passwordField: string | undefined): Error {
  let upstream: { code?: string; message?: string } = {};
  try {
    upstream = JSON.parse(text);
  } catch {
    // not JSON: keep the status, use a generic message
  }
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
