import { randomBytes } from 'node:crypto';
import type { z } from 'zod';
import {
  DeviceSessionListSchema,
  type ChangeEmailSchema,
  type DeleteAccountSchema,
  type UpdateProfileSchema,
} from '@carmarket/shared';
import type { Mailer } from '../../adapters/mail.ts';
import type { Storage } from '../../adapters/storage.ts';
import type { Db } from '../../db/client.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { AppError } from '../../lib/errors.ts';
import { authorize } from '../../lib/policy.ts';
import type { SessionUser } from '../../plugins/auth.ts';
import type { LiveHub } from '../messages/live.ts';
import { resolveOwnUploads } from '../uploads/uploads.service.ts';
import { userPolicy } from '../users/users.policy.ts';
import { deleteAccountLinkMail, emailChangeNotice } from './account-mail.ts';
import { notifyPasswordChanged, SETTINGS_PATH, type Auth } from './auth.ts';
import type { AuthCall, OwnAnswer } from './better-auth-bridge.ts';
import { presentDeviceSession, presentSignInMethods } from './sessions.presenter.ts';
import type { SignInLimits } from './sign-in-limits.ts';
import { liveSessionsOf, ownSessionToken, passwordHashOf } from './settings.service.ts';

/*
 * The account settings calls, where they need more than better-auth gives (decision 016): what
 * runs before better-auth is asked (checks, limits, the body it gets) and after it answered.
 * Each is a step of a row in the table of calls (auth.routes.ts).
 */

/** How long the link that confirms deleting an account without a password works. */
const DELETE_LINK_MINUTES = 60;

export interface AccountFlowDeps {
  auth: Auth;
  db: Db;
  mailer: Mailer;
  storage: Storage;
  limits: SignInLimits;
  siteOrigin: () => string;
  live: Pick<LiveHub, 'endRevokedStreamsOf'>;
  background: BackgroundWork;
}

export async function accountFlows({
  auth,
  db,
  mailer,
  storage,
  limits,
  siteOrigin,
  live,
  background,
}: AccountFlowDeps) {
  const authContext = await auth.$context;
  const hasPassword = async (userId: string) => (await passwordHashOf(db, userId)) !== null;

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
    const giveBack = await limits.passwordCheck(person.email, ip);
    let right: boolean;
    try {
      right = await authContext.password.verify({ hash, password: given });
    } catch (error) {
      await giveBack();
      throw error;
    }
    if (!right) {
      throw new AppError(400, 'wrong-password', 'That is not your current password.', { field });
    }
    await giveBack();
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

  return {
    /** A new address: not the one in use; the current password; both mailboxes get mail. */
    async changeEmail(call: AuthCall): Promise<void> {
      const caller = call.caller!;
      const { newEmail, currentPassword, callbackURL } = call.body as z.infer<
        typeof ChangeEmailSchema
      >;
      if (newEmail.toLowerCase() === caller.email.toLowerCase()) {
        throw new AppError(400, 'validation-failed', 'This is your address already.', {
          field: 'newEmail',
        });
      }
      await checkCurrentPassword(caller, currentPassword, call.request.ip, 'currentPassword');
      // Both mailboxes get mail: the new one the link, the old one a notice.
      await limits.mail(call.request.ip, [caller.email, newEmail]);
      call.body = { newEmail, ...(callbackURL ? { callbackURL } : {}) };
    },

    /**
     * The notice goes whether or not the new address has an account (better-auth mails that
     * address nothing then), so the old mailbox cannot tell which addresses have accounts.
     */
    emailChanged(call: AuthCall): void {
      const { newEmail } = call.body as { newEmail: string };
      void background.run('the change-of-address notice', () =>
        mailer.send(emailChangeNotice(call.caller!, newEmail, `${siteOrigin()}/forgot-password`)),
      );
    },

    /** Every other session ends, and with them their bearer tokens (issue 14). */
    async changePassword(call: AuthCall): Promise<void> {
      call.body = { ...(call.body as object), revokeOtherSessions: true };
      call.guesses = await limits.passwordCheck(call.caller!.email, call.request.ip);
    },

    passwordChanged(call: AuthCall): void {
      void background.run('the password-changed notice', () =>
        notifyPasswordChanged((request) => auth.handler(request), siteOrigin(), call.caller!.email),
      );
    },

    /** A profile photo must be one of the person's own uploads; its thumbnail is what is kept. */
    async ownPhoto(call: AuthCall): Promise<void> {
      const body = call.body as z.infer<typeof UpdateProfileSchema>;
      if (!body.image) return;
      try {
        const [photo] = await resolveOwnUploads(db, storage, call.caller!.id, [body.image]);
        call.body = { ...body, image: photo!.thumbUrl };
      } catch (error) {
        if (error instanceof AppError) {
          throw new AppError(400, 'validation-failed', 'Choose a photo you uploaded.', {
            field: 'image',
          });
        }
        throw error;
      }
    },

    /** The token better-auth revokes a session by, for one of the person's own sessions. */
    async ownSession(call: AuthCall): Promise<void> {
      const token = await ownSessionToken(db, call.caller!.id, (call.body as { id: string }).id);
      // Someone else's session is answered as one that does not exist (decision 008).
      if (!token) throw new AppError(404, 'not-found', 'That session has ended already.');
      call.body = { token };
    },

    /** A live stream of a session that has ended closes now, not at its next check. */
    sessionsEnded(call: AuthCall): void {
      if (call.caller) live.endRevokedStreamsOf(call.caller.id);
    },

    /** better-auth's list of the person's sessions, through our presenter (no tokens). */
    async devices(call: AuthCall, text: string): Promise<OwnAnswer> {
      const person = call.caller!;
      const listed = (JSON.parse(text) as Array<{ id: string }>).map((entry) => entry.id);
      if (listed.length === 0) return { answer: [] };
      const rows = await liveSessionsOf(db, person.id, listed);
      const devices = rows.map((row) => presentDeviceSession(row, person.sessionId));
      // This device first, then the most recently used.
      devices.sort(
        (a, b) => Number(b.current) - Number(a.current) || b.lastUsedAt.localeCompare(a.lastUsedAt),
      );
      return { answer: DeviceSessionListSchema.parse(devices) };
    },

    signInMethods: (_call: AuthCall, text: string): Promise<OwnAnswer> =>
      Promise.resolve({ answer: presentSignInMethods(JSON.parse(text)) }),

    /**
     * Deleting an account: by a mailed link's token, or with the password; an account without
     * one (Google only) is mailed a link that stands in for it. better-auth would mail one to
     * everyone if configured to, passwords or not.
     */
    async deleteAccount(call: AuthCall): Promise<void | OwnAnswer> {
      const caller = call.caller!;
      authorize(userPolicy.canDeleteSelf(caller));
      const given = call.body as z.infer<typeof DeleteAccountSchema>;
      if (given.token) {
        call.body = { token: given.token };
        return;
      }
      if (await hasPassword(caller.id)) {
        if (!given.password) {
          throw new AppError(400, 'validation-failed', 'Enter your password', {
            field: 'password',
          });
        }
        call.body = { password: given.password };
        call.guesses = await limits.passwordCheck(caller.email, call.request.ip);
        return;
      }
      await limits.mail(call.request.ip, [caller.email]);
      await mailDeleteLink(caller);
      return { answer: { success: true, message: 'Verification email sent' } };
    },
  };
}
