import fs from 'node:fs/promises';
import path from 'node:path';

/** A second process tried to open an embedded database that a live process has open. */
export class DatabaseInUseError extends Error {
  override name = 'DatabaseInUseError';
}

/** The lock files this process holds. */
const held = new Set<string>();

/**
 * Takes `<dir>.lock` (`$DATA_DIR/db.lock`) holding this process's id; answers its release. A lock
 * whose process is gone (a crash, a killed server), or names this process without it holding the
 * lock (a container restarted with the same id), is taken over.
 */
export async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const file = `${path.resolve(dir)}.lock`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  for (;;) {
    try {
      if (held.has(file)) throw Object.assign(new Error('held here'), { code: 'EEXIST' });
      await fs.writeFile(file, `${process.pid}\n`, { flag: 'wx' });
      held.add(file);
      return async () => {
        held.delete(file);
        await fs.rm(file, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = Number((await fs.readFile(file, 'utf8').catch(() => '')).trim());
    const live = holder === process.pid ? held.has(file) : holder > 0 && processIsAlive(holder);
    if (live) {
      throw new DatabaseInUseError(
        `The embedded database in ${dir} is open in process ${holder} (a running CarMarket server?). ` +
          `Stop that process, then run this again. If no CarMarket process is running, delete ${file}.`,
      );
    }
    await fs.rm(file, { force: true });
  }
}

function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, under another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
