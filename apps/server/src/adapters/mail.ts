import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Extra headers, such as `List-Unsubscribe`. */
  headers?: Record<string, string>;
}

/**
 * Sends mail: over SMTP when `SMTP_URL` is set, else into the outbox folder (and its text into
 * the log at `debug`).
 */
export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

export interface OutboxEntry extends MailMessage {
  from: string;
  sentAt: string;
}

export function createMailer(options: {
  smtpUrl: string | undefined;
  from: string;
  outboxDir: string;
  log: FastifyBaseLogger;
}): Mailer {
  const { smtpUrl, from, outboxDir, log } = options;
  if (smtpUrl) {
    // Loaded with the first mail: a server without SMTP_URL never needs nodemailer.
    let transport: Promise<{ sendMail(mail: object): Promise<unknown> }> | undefined;
    return {
      async send(message) {
        transport ??= import('nodemailer').then(({ default: nodemailer }) =>
          nodemailer.createTransport(smtpUrl),
        );
        await (await transport).sendMail({ from, ...message });
        log.info({ to: message.to, subject: message.subject }, 'mail sent');
      },
    };
  }
  // Made once, not checked again for every mail; made again if someone removes it meanwhile.
  let outboxMade: Promise<unknown> | undefined;
  return {
    async send(message) {
      await (outboxMade ??= fs.mkdir(outboxDir, { recursive: true }));
      const entry: OutboxEntry = { from, sentAt: new Date().toISOString(), ...message };
      // Time first, so a directory listing reads in the order mail was sent.
      const file = path.join(
        outboxDir,
        `${entry.sentAt.replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}.json`,
      );
      // Written whole, then named: a reader of the folder never finds half a mail.
      const write = async () => {
        await fs.writeFile(`${file}.part`, JSON.stringify(entry, null, 2));
        await fs.rename(`${file}.part`, file);
      };
      await write().catch(async (error: unknown) => {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
        await (outboxMade = fs.mkdir(outboxDir, { recursive: true }));
        await write();
      });
      // The text holds the links' tokens (reset, sign-in, confirmation): only at `debug`, for
      // someone trying the app locally; the log of a running site never has it (decision 040).
      log.info(
        { to: message.to, subject: message.subject, file },
        'mail written to the outbox (no SMTP_URL)',
      );
      log.debug({ file, text: message.text }, 'the text of the mail written to the outbox');
    },
  };
}

/** Mail in the outbox, oldest first (used by tests and by people trying the app locally). */
export async function readOutbox(outboxDir: string): Promise<OutboxEntry[]> {
  const files = (await fs.readdir(outboxDir).catch(() => []))
    .filter((f) => f.endsWith('.json'))
    .sort();
  return Promise.all(
    files.map(async (f) => JSON.parse(await fs.readFile(path.join(outboxDir, f), 'utf8'))),
  );
}
