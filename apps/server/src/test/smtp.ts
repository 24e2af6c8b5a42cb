import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** A mail the stand-in accepted. */
export interface ReceivedMail {
  to: string[];
  subject: string;
}

/** What the stand-in answers to a recipient: accept, or refuse with an SMTP code. */
export type RecipientAnswer = 'accept' | { code: number; message: string };

/**
 * A local SMTP server standing in for the mail provider at the network edge (SMTP_URL points at
 * it): it records what it accepts and answers each recipient as `answer` says, so tests can make
 * a mailbox refuse for good (550) or for now (451).
 */
export async function startSmtpStandIn(answer: (recipient: string) => RecipientAnswer) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address: SMTPServerAddress, _session, callback) {
      const verdict = answer(address.address);
      if (verdict === 'accept') return callback();
      callback(Object.assign(new Error(verdict.message), { responseCode: verdict.code }));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(Buffer.concat(chunks).toString('utf8'))?.[1] ?? '';
        received.push({
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          subject: subject.trim(),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
