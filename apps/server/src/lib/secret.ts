import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Config } from '../config.ts';

/**
 * The secret that signs sessions and tokens: `BETTER_AUTH_SECRET`, or (outside production) one
 * generated on first start and kept in `$DATA_DIR/auth-secret`, so sessions survive restarts.
 */
export async function resolveAuthSecret(config: Config): Promise<string> {
  if (config.BETTER_AUTH_SECRET) return config.BETTER_AUTH_SECRET;
  const file = path.join(config.dataDir, 'auth-secret');
  await fs.mkdir(config.dataDir, { recursive: true });
  try {
    await fs.writeFile(file, randomBytes(32).toString('base64url'), { flag: 'wx', mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  return (await fs.readFile(file, 'utf8')).trim();
}
