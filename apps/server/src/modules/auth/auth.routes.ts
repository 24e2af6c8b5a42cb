import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ChangeEmailSchema,
  ChangePasswordSchema,
  DeleteAccountSchema,
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
} from '@carmarket/shared';
import type { Mailer } from '../../adapters/mail.ts';
import type { Storage } from '../../adapters/storage.ts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { AppError } from '../../lib/errors.ts';
import { orGiveBack, type CounterStore } from '../../lib/rate-limit.ts';
import type { LiveHub } from '../messages/live.ts';
import { accountFlows } from './account-flows.ts';
import { googleSignInEnabled, type Auth } from './auth.ts';
import { mountBetterAuth, type AuthCall, type CallRule } from './better-auth-bridge.ts';
import { releaseDeletedEmails } from '../users/deleted-accounts.ts';
import type { KnownBrowsers } from './known-browsers.ts';
import { signInLimits } from './sign-in-limits.ts';
import { signUpAnswers } from './sign-up-answers.ts';

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

/**
 * better-auth at `/api/auth/*` (better-auth-bridge.ts), with sign-in, password checks and every
 * call that sends mail rate limited per account and per IP (sign-in-limits.ts), and the settings
 * calls wrapped where they need more than better-auth gives (account-flows.ts, decision 016).
 */
export async function authRoutes(app: FastifyInstance, deps: AuthRouteDeps) {
  const { auth, db, counters, knownBrowsers, config, siteOrigin } = deps;
  const holdDays = config.DELETED_ACCOUNT_HOLD_DAYS;
  const google = googleSignInEnabled(config);
  const limits = signInLimits(config, counters);
  const flows = await accountFlows({ ...deps, limits });
  const answerTakenAddress = signUpAnswers({ ...deps, limits, holdDays });

  app.get(
    '/sign-in-options',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Which ways of signing in this server offers besides a password, whether booking and listing need a confirmed address, how long a deleted account keeps its address, and whether cars can be browsed without an account',
        response: { 200: SignInOptionsSchema },
      },
    },
    async () => ({
      google,
      emailLink: true,
      requireVerifiedEmail: config.REQUIRE_VERIFIED_EMAIL,
      deletedAccountHoldDays: holdDays,
      browseSignedOut: config.BROWSE_SIGNED_OUT,
    }),
  );

  /** A call that may send mail to the body's address counts against the mail limits. */
  const mailsTheAddress = async (call: AuthCall) => {
    if (call.email) await limits.mail(call.request.ip, [call.email]);
  };

  /**
   * Every call of better-auth's that this site uses, and what runs around it; the rest answer 404
   * (better-auth-bridge.ts). `signedIn: 'required'`: the settings calls.
   */
  const calls: Record<string, CallRule> = {
    'GET /get-session': {},
    'POST /sign-up/email': {
      body: SignUpBody,
      remembersBrowser: true,
      async before(call) {
        // Counted before the account is made; kept unless the server failed: a sign-up with a
        // taken address counts as a new one does, so it answers alike, 429 included.
        call.signUps = await limits.signUp(call.request.ip);
        // A taken address answers as a new one and is mailed instead (decision 044).
        return answerTakenAddress(call);
      },
    },
    'POST /sign-in/email': {
      body: SignInBody,
      remembersBrowser: true,
      async before(call) {
        if (!call.email) return;
        const { email, request } = call;
        const known = knownBrowsers.knows(request.headers.cookie, email);
        call.guesses = await limits.signIn(email, request.ip, known);
        // A deleted account whose hold is over no longer answers to its address (decision 012).
        await orGiveBack(call.guesses, () => releaseDeletedEmails(db, holdDays, email));
      },
    },
    'POST /sign-out': { signedIn: 'optional', after: flows.sessionsEnded },
    'POST /request-password-reset': { body: ResetRequestBody, before: mailsTheAddress },
    'POST /forget-password': { body: ResetRequestBody, before: mailsTheAddress },
    'POST /reset-password': { body: ResetBody },
    'POST /send-verification-email': { body: SendVerificationSchema, before: mailsTheAddress },
    'GET /verify-email': {},
    'POST /sign-in/magic-link': { body: MagicLinkSchema, before: mailsTheAddress },
    'GET /magic-link/verify': {},
    'POST /sign-in/social': {
      body: SocialSignInBody,
      async before() {
        // Without credentials better-auth would log a "Provider not found" error.
        if (!google) {
          throw new AppError(404, 'not-found', 'Google sign-in is not set up on this server.');
        }
      },
    },
    'GET /callback/google': {},
    'GET /error': {},
    'POST /update-user': {
      signedIn: 'required',
      body: UpdateProfileSchema,
      before: flows.ownPhoto,
    },
    'POST /change-password': {
      signedIn: 'required',
      body: ChangePasswordSchema,
      passwordField: 'currentPassword',
      before: flows.changePassword,
      after(call) {
        flows.sessionsEnded(call);
        flows.passwordChanged(call);
      },
    },
    'POST /change-email': {
      signedIn: 'required',
      body: ChangeEmailSchema,
      before: flows.changeEmail,
      after: flows.emailChanged,
    },
    'GET /list-sessions': { signedIn: 'required', after: flows.devices },
    'GET /list-accounts': { signedIn: 'required', after: flows.signInMethods },
    'POST /revoke-session': {
      signedIn: 'required',
      body: RevokeSessionSchema,
      before: flows.ownSession,
      after: flows.sessionsEnded,
    },
    'POST /revoke-other-sessions': { signedIn: 'required', after: flows.sessionsEnded },
    'POST /delete-user': {
      signedIn: 'required',
      body: DeleteAccountSchema,
      passwordField: 'password',
      before: flows.deleteAccount,
    },
  };

  mountBetterAuth(app, { auth, calls, knownBrowsers, siteOrigin });
}
