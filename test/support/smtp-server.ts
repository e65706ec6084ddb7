import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

/** A message as the SMTP server received it: the envelope's recipients and the raw message. */
export interface ReceivedMail {
  to: string;
  raw: string;
}

export interface SmtpCatcher {
  /** SMTP_URL for a test app. */
  url: string;
  mails: ReceivedMail[];
  /** Resolves with the first message to `to` (case-insensitive) once it arrived. */
  waitFor(to: string): Promise<ReceivedMail>;
  close(): Promise<void>;
}

/** A real SMTP server on loopback (no TLS, no auth) that keeps what it receives. */
export async function startSmtpCatcher(): Promise<SmtpCatcher> {
  const mails: ReceivedMail[] = [];
  const waiting: Array<{ to: string; resolve: (m: ReceivedMail) => void }> = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const mail = { to: session.envelope.rcptTo.map((r) => r.address).join(','), raw };
        mails.push(mail);
        for (const w of waiting.filter((x) => x.to === mail.to.toLowerCase())) w.resolve(mail);
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`,
    mails,
    waitFor(to) {
      const found = mails.find((m) => m.to.toLowerCase() === to.toLowerCase());
      return found ? Promise.resolve(found) : new Promise((resolve) => waiting.push({ to: to.toLowerCase(), resolve }));
    },
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
