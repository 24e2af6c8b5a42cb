// `npm run create-admin -- --email you@example.com --password '...' [--name 'Your Name']`:
// creates an admin account, or promotes an existing account (and sets its password if given).
import { parseArgs } from 'node:util';
import { hashPassword } from 'better-auth/crypto';
import { and, eq, sql } from 'drizzle-orm';
import { EmailSchema, NameSchema, NewPasswordSchema } from '@carmarket/shared';
import { ConfigError, loadConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';
import { account, user } from '../db/schema.ts';
import path from 'node:path';

async function main() {
  const { values } = parseArgs({
    options: { email: { type: 'string' }, password: { type: 'string' }, name: { type: 'string' } },
  });
  const email = EmailSchema.safeParse(values.email ?? '');
  if (!email.success) throw new UsageError(`--email: ${email.error.issues[0]?.message}`);
  const password =
    values.password === undefined ? undefined : NewPasswordSchema.safeParse(values.password);
  if (password && !password.success)
    throw new UsageError(`--password: ${password.error.issues[0]?.message}`);
  const name = NameSchema.safeParse(values.name ?? 'Administrator');
  if (!name.success) throw new UsageError(`--name: ${name.error.issues[0]?.message}`);

  const config = loadConfig();
  const database = await openDatabase({
    url: config.DATABASE_URL,
    pgliteDir: path.join(config.dataDir, 'db'),
    poolSize: 2,
    migrationsDir: config.migrationsDir,
  });
  try {
    await database.withStartupLock(() => database.migrate());
    const hash = password ? await hashPassword(password.data) : undefined;
    const outcome = await database.db.transaction(async (tx) => {
      const [existing] = await tx
        .select({ id: user.id })
        .from(user)
        .where(eq(sql`lower(${user.email})`, email.data.toLowerCase()));
      if (!existing && !hash)
        throw new UsageError('--password is required to create a new account');
      const [person] = existing
        ? await tx
            .update(user)
            .set({ roles: ['admin'], deletedAt: null })
            .where(eq(user.id, existing.id))
            .returning({ id: user.id })
        : await tx
            .insert(user)
            .values({ email: email.data, name: name.data, roles: ['admin'], emailVerified: true })
            .returning({ id: user.id });
      if (hash) {
        const updated = await tx
          .update(account)
          .set({ password: hash })
          .where(and(eq(account.userId, person!.id), eq(account.providerId, 'credential')))
          .returning({ id: account.id });
        if (updated.length === 0) {
          await tx.insert(account).values({
            userId: person!.id,
            accountId: person!.id,
            providerId: 'credential',
            password: hash,
          });
        }
      }
      return existing ? 'promoted to admin' : 'created as admin';
    });
    console.log(`${email.data}: ${outcome}.`);
  } finally {
    await database.close();
  }
}

class UsageError extends Error {}

main().catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError) {
    console.error(error.message);
    console.error(
      "usage: npm run create-admin -- --email you@example.com --password '...' [--name 'Your Name']",
    );
  } else {
    console.error('create-admin failed:', error);
  }
  process.exit(1);
});
