import { hashPassword, verifyPassword } from 'better-auth/crypto';

/** How passwords are hashed and checked: sign-up, sign-in, password changes, the demo seed. */
export interface PasswordHashing {
  hash(password: string): Promise<string>;
  verify(data: { hash: string; password: string }): Promise<boolean>;
}

/**
 * better-auth's own scrypt (N=16384, r=16): ~130 ms of CPU a hash on purpose, so a stolen table
 * costs that per guess. The only hashing a running server uses; tests may pass a cheaper one to
 * `buildApp` (decision 023).
 */
export const scryptPasswords: PasswordHashing = {
  hash: hashPassword,
  verify: verifyPassword,
};
