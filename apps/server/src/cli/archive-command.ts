// What `npm run backup` and `npm run restore` share (decision 041): a step's time as it ends, and
// one sentence and exit 1 on a refusal or failure.
import { BackupError } from '../backup/backup.ts';
import { ConfigError } from '../config.ts';
import { DatabaseInUseError } from '../db/pglite-lock.ts';

/** A command line the command cannot run with; the usage line follows its message. */
export class UsageError extends Error {}

/** Prints a step of the backup or restore as it ends. */
export function progress(step: string, seconds: number) {
  console.log(`  ${step}: ${seconds.toFixed(1)} s`);
}

/** Runs `main`, turning what it throws into a message and exit code 1. */
export function runArchiveCommand(
  verb: 'backup' | 'restore',
  usage: string,
  main: () => Promise<void>,
) {
  main().catch((error: unknown) => {
    if (error instanceof UsageError || error instanceof ConfigError) {
      console.error(error.message);
      console.error(`usage: ${usage}`);
    } else if (error instanceof BackupError || error instanceof DatabaseInUseError) {
      console.error(`${verb} failed: ${error.message}`);
    } else {
      console.error(`${verb} failed:`, error);
    }
    process.exit(1);
  });
}
