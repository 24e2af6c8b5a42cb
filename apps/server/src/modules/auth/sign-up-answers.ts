import { and, eq, isNull, sql } from 'drizzle-orm';
import { randomUUID } from 'node:crypto';
import type { Mailer } from '../../adapters/mail.ts';
import type { Db } from '../../db/client.ts';
import { user } from '../../db/schema.ts';
import type { BackgroundWork } from '../../lib/background-work.ts';
import { AppError } from '../../lib/errors.ts';
import { deletedAccountSignUpMessage, heldByDeletedAccount } from '../users/deleted-accounts.ts';
import { deletedAccountSignUpMail, signUpAttemptMail } from './account-mail.ts';
import type { Auth } from './auth.ts';
import type { AuthCall, OwnAnswer } from './better-auth-bridge.ts';
import type { SignInLimits } from './sign-in-limits.ts';

/*
 * Sign-up tells no stranger who has an account (decision 044). A sign-up with an address that has
 * an account, or that a deleted account still holds (decision 012), answers what a new sign-up
 * answers (200, `{ user }` of the same fields, a new id) and mails the address instead: its owner
 * learns that someone tried, and a deleted account's owner when it was deleted and from when the
 * address is free. The password is hashed as for a new account, so the answer takes as long.
 * better-auth signs a new account in at once (autoSignIn): that session cookie is the one thing
 * these answers cannot share.
 */

export interface SignUpAnswerDeps {
  auth: Auth;
  db: Db;
  mailer: Mailer;
  background: BackgroundWork;
  limits: SignInLimits;
  holdDays: number;
  siteOrigin: () => string;
}

/** A new sign-up's answer, field for field (better-auth's, without its token). */
function newAccountAnswer(name: string, email: string) {
  const now = new Date().toISOString();
  return {
    user: {
      name,
      email,
      emailVerified: false,
      image: null,
      createdAt: now,
      updatedAt: now,
      roles: [],
      phone: null,
      verified: false,
      deletedAt: null,
      id: randomUUID(),
    },
  };
}

/** The `before` of `POST /sign-up/email`, after the sign-up limits were counted. */
export function signUpAnswers(deps: SignUpAnswerDeps) {
  const { auth, db, mailer, background, limits, holdDays, siteOrigin } = deps;

  /** The mail to a taken address; over the mail limits, none (the answer stays the same). */
  async function mailTheAddress(ip: string, mail: Parameters<Mailer['send']>[0]) {
    try {
      await limits.mail(ip, [mail.to]);
    } catch (error) {
      if (error instanceof AppError && error.statusCode === 429) return;
      throw error;
    }
    await mailer.send(mail);
  }

  return async function answerTakenAddress(call: AuthCall): Promise<void | OwnAnswer> {
    const { email } = call;
    if (!email) return;
    // A deleted account holds its address for a while, then frees it (decision 012).
    const deletedAt = await heldByDeletedAccount(db, email, holdDays);
    const [owner] = deletedAt
      ? []
      : await db
          .select({ name: user.name, email: user.email })
          .from(user)
          .where(and(eq(sql`lower(${user.email})`, email), isNull(user.deletedAt)));
    if (!deletedAt && !owner) return; // a new address: better-auth makes the account
    const { name, password } = call.body as { name: string; password: string };
    await (await auth.$context).password.hash(password);
    const mail = deletedAt
      ? deletedAccountSignUpMail(email, deletedAccountSignUpMessage(deletedAt, holdDays))
      : signUpAttemptMail(owner!, {
          signIn: `${siteOrigin()}/login`,
          forgot: `${siteOrigin()}/forgot-password`,
        });
    void background.run('the sign-up attempt notice', () => mailTheAddress(call.request.ip, mail));
    return { answer: newAccountAnswer(name, email) };
  };
}
