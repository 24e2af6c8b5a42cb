import { fromNodeHeaders } from 'better-auth/node';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import {
  EmailSchema,
  NameSchema,
  NewPasswordSchema,
  PASSWORD_MAX_LENGTH,
  type ErrorCode,
  messageForCode,
} from '@carmarket/shared';
import type { Config } from '../../config.ts';
import { AppError } from '../../lib/errors.ts';
import type { CounterStore } from '../../lib/rate-limit.ts';
import type { Auth } from './auth.ts';

/** better-auth's error codes, in the spec's client codes (spec section 8). */
const AUTH_ERRORS: Record<string, { status: number; code: ErrorCode; message?: string }> = {
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
  USER_DISABLED: { status: 403, code: 'user-disabled' },
  SESSION_EXPIRED: { status: 401, code: 'requires-recent-login' },
};

const SignUpBody = z.object({ name: NameSchema, email: EmailSchema, password: NewPasswordSchema });
const SignInBody = z.object({
  email: EmailSchema,
  password: z.string().min(1, 'Password is required').max(PASSWORD_MAX_LENGTH),
});
const ResetRequestBody = z.object({ email: EmailSchema });
const ResetBody = z.object({ newPassword: NewPasswordSchema, token: z.string().min(1) });
const UpdateUserBody = z.object({ name: NameSchema.optional() });

/** Our checks on the body of the calls that take user input, by path below `/api/auth`. */
const BODY_RULES: Record<string, z.ZodType> = {
  '/sign-up/email': SignUpBody,
  '/sign-in/email': SignInBody,
  '/request-password-reset': ResetRequestBody,
  '/forget-password': ResetRequestBody,
  '/reset-password': ResetBody,
  '/update-user': UpdateUserBody,
};

function validationError(error: z.ZodError): AppError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || 'body';
  const code: ErrorCode =
    field === 'password' || field === 'newPassword'
      ? 'weak-password'
      : field === 'email'
        ? 'invalid-email'
        : 'validation-failed';
  return new AppError(400, code, issue?.message ?? messageForCode(code), { field });
}

export interface AuthRouteDeps {
  auth: Auth;
  counters: CounterStore;
  config: Config;
  /** The site's own origin (PUBLIC_URL, or fixed at start-up): never taken from a request. */
  siteOrigin: () => string;
}

/** better-auth's paths are plain segments: no dots, escapes, empty segments or trailing slash. */
const CANONICAL_PATH = /^\/api\/auth(\/[A-Za-z0-9_-]+)+$/;

/**
 * Mounts better-auth at `/api/auth/*`. Fastify has already parsed the body (better-auth issue
 * 599), so it is passed on re-serialised; every `Set-Cookie` is copied; errors are turned into
 * our `{error:{code,message}}` shape with the spec's codes; sign-in and reset requests are rate
 * limited per account and per IP.
 */
export async function authRoutes(
  app: FastifyInstance,
  { auth, counters, config, siteOrigin }: AuthRouteDeps,
) {
  const windowMs = config.SIGN_IN_LIMIT_WINDOW_SECONDS * 1000;

  /**
   * Counts one attempt against every limit before it is made, so parallel requests cannot all
   * slip under a limit; answers the keys it counted, or 429 (taking its own counts back).
   */
  async function reserve(limits: Array<[key: string, max: number]>): Promise<string[]> {
    const taken: string[] = [];
    for (const [key, max] of limits) {
      const state = await counters.hit(key, windowMs);
      taken.push(key);
      if (state.count > max) {
        await Promise.all(taken.map((k) => counters.undo(k)));
        const retryAfterSeconds = Math.max(1, Math.ceil((state.resetAt - Date.now()) / 1000));
        throw new AppError(
          429,
          'too-many-requests',
          `Too many attempts. Please try again in ${formatWait(retryAfterSeconds)}.`,
          { retryAfterSeconds },
        );
      }
    }
    return taken;
  }

  async function forward(request: FastifyRequest, reply: FastifyReply, subpath: string) {
    const endpoint = subpath.toLowerCase();
    const rule = request.method === 'POST' ? BODY_RULES[endpoint] : undefined;
    let email: string | undefined;
    if (rule) {
      const parsed = rule.safeParse(request.body ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      email = (parsed.data as { email?: string }).email?.toLowerCase();
    }

    const isSignIn = endpoint === '/sign-in/email' && request.method === 'POST';
    const isResetRequest =
      (endpoint === '/request-password-reset' || endpoint === '/forget-password') &&
      request.method === 'POST';
    // Sign-in counts failures only (a shared office address is not locked out by its own people);
    // a guess is counted per address, per account and address, and per account from everywhere.
    let failureKeys: string[] = [];
    if (isSignIn && email) {
      failureKeys = await reserve([
        [`fail-ip:${request.ip}`, config.SIGN_IN_LIMIT_PER_IP],
        [`fail:${email}:${request.ip}`, config.SIGN_IN_LIMIT_PER_ACCOUNT],
        [`fail-all:${email}`, config.SIGN_IN_LIMIT_ACCOUNT_TOTAL],
      ]);
    }
    // Reset mail costs something whatever its outcome: every request counts.
    if (isResetRequest && email) {
      await reserve([
        [`reset-ip:${request.ip}`, config.SIGN_IN_LIMIT_PER_IP],
        [`reset:${email}`, config.SIGN_IN_LIMIT_PER_ACCOUNT],
      ]);
    }

    // The address better-auth sees (and builds mail links from) is ours, never the Host header.
    const url = new URL(request.url, siteOrigin());
    const hasBody = request.method !== 'GET' && request.method !== 'HEAD' && request.body != null;
    const headers = fromNodeHeaders(request.headers);
    headers.set('host', url.host);
    if (hasBody) headers.set('content-type', 'application/json');
    headers.delete('content-length');
    let response: Response;
    try {
      response = await auth.handler(
        new Request(url, {
          method: request.method,
          headers,
          body: hasBody ? JSON.stringify(request.body) : undefined,
        }),
      );
    } catch (error) {
      await Promise.all(failureKeys.map((key) => counters.undo(key)));
      throw error;
    }

    // Only a wrong password is a failure; the reserved attempt is given back otherwise.
    if (failureKeys.length > 0 && response.status !== 401) {
      await Promise.all(failureKeys.map((key) => counters.undo(key)));
    }

    const text = await response.text();
    if (response.status >= 400) throw authError(response.status, text);

    reply.status(response.status);
    response.headers.forEach((value, name) => {
      if (name !== 'set-cookie' && name !== 'content-length' && name !== 'content-encoding') {
        reply.header(name, value);
      }
    });
    const cookies = response.headers.getSetCookie();
    if (cookies.length > 0) reply.header('set-cookie', cookies);

    return reply.send(text.length > 0 ? text : null);
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

/** better-auth's error answer as ours; its 5xx stay 5xx (and are logged by the error handler). */
function authError(status: number, text: string): Error {
  let upstream: { code?: string; message?: string } = {};
  try {
    upstream = JSON.parse(text);
  } catch {
    // not JSON: keep the status, use a generic message
  }
  const mapped = upstream.code ? AUTH_ERRORS[upstream.code] : undefined;
  if (mapped) return new AppError(mapped.status, mapped.code, mapped.message);
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

function formatWait(seconds: number): string {
  if (seconds < 60) return `${seconds} second${seconds === 1 ? '' : 's'}`;
  const minutes = Math.ceil(seconds / 60);
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}
