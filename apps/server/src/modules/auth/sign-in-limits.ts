import type { Config } from '../../config.ts';
import {
  formatWait,
  spend,
  type CounterStore,
  type GiveBack,
  type Limit,
} from '../../lib/rate-limit.ts';
import { addressKey } from '../../lib/proxy-trust.ts';

/*
 * The limits on the ways into an account (decisions 006, 012, 024): password guesses, mail sent,
 * accounts made. Each counts an attempt before it is made (lib/rate-limit.ts `spend`) and answers
 * how to give the counts back when the attempt turns out not to count.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

const tooManyAttempts = (wait: string) => `Too many attempts. Please try again in ${wait}.`;
/** Only password guesses are held: the other ways in are counted apart, so they still work. */
const tooManyWrongPasswords = (wait: string) =>
  `Too many wrong passwords. Please try again in ${wait}, or sign in with a link we email you, or reset your password: both still work.`;
const tooManySignUps = (wait: string) =>
  `Too many accounts have been made from your network. Please try again in ${wait}.`;

export type SignInLimits = ReturnType<typeof signInLimits>;

export function signInLimits(config: Config, counters: CounterStore) {
  const signInWindowMs = config.SIGN_IN_LIMIT_WINDOW_SECONDS * 1000;
  const limit = (
    key: string,
    max: number,
    sentence: (wait: string) => string,
    windowMs = signInWindowMs,
  ): Limit => ({ key, max, windowMs, message: (seconds) => sentence(formatWait(seconds)) });

  /**
   * Guessing a password counts against its account as a failed sign-in does (decision 006): per
   * account and address, and per account from everywhere; `perIp` adds the address's own limit.
   */
  const guesses = (
    email: string,
    ip: string,
    perIp: boolean,
    sentence: (wait: string) => string,
  ): Promise<GiveBack> =>
    spend(counters, [
      ...(perIp ? [limit(`fail-ip:${addressKey(ip)}`, config.SIGN_IN_LIMIT_PER_IP, sentence)] : []),
      limit(`fail:${email}:${addressKey(ip)}`, config.SIGN_IN_LIMIT_PER_ACCOUNT, sentence),
      limit(`fail-all:${email}`, config.SIGN_IN_LIMIT_ACCOUNT_TOTAL, sentence),
    ]);

  return {
    /**
     * Sign-in counts failures only (a shared office address is not locked out by its own people):
     * per IP, per account and address, and per account from everywhere. A browser that has signed
     * in to this account before is held by the account's limits only, so a right password gets
     * in unless the account itself is under attack (decision 012).
     */
    signIn: (email: string, ip: string, knownBrowser: boolean) =>
      guesses(email, ip, !knownBrowser, tooManyWrongPasswords),

    /** A settings call that checks the current password: a guess like any other. */
    passwordCheck: (email: string, ip: string) => guesses(email, ip, false, tooManyAttempts),

    /**
     * Mail costs something whatever its outcome, so every request that may send one counts, per
     * address it would go to and per IP, whether or not the address has an account: the answer,
     * 429 included, is the same either way.
     */
    mail: (ip: string, addresses: string[]): Promise<GiveBack> =>
      spend(counters, [
        limit(`mail-ip:${addressKey(ip)}`, config.SIGN_IN_LIMIT_PER_IP, tooManyAttempts),
        ...[...new Set(addresses.map((address) => address.toLowerCase()))].map((address) =>
          limit(`mail:${address}`, config.SIGN_IN_LIMIT_PER_ACCOUNT, tooManyAttempts),
        ),
      ]),

    /** Each account brings fresh limits of its own, so the accounts one IP makes are limited. */
    signUp: (ip: string): Promise<GiveBack> =>
      spend(counters, [
        limit(`signup-ip:${addressKey(ip)}`, config.SIGN_UP_LIMIT_PER_IP, tooManySignUps, HOUR_MS),
        limit(
          `signup-ip-day:${addressKey(ip)}`,
          config.SIGN_UP_LIMIT_PER_IP_PER_DAY,
          tooManySignUps,
          DAY_MS,
        ),
      ]),
  };
}
