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

export interface SmtpCatcherOptions {
  /** The reply code to refuse a recipient with at RCPT TO (e.g. 550: no such mailbox), or undefined to take it. */
  refuseRecipient?: (address: string) => number | undefined;
  /** The reply code to refuse a message with after its data (e.g. 451: try again later), or undefined to take it. */
  refuseData?: () => number | undefined;
}

/** A real SMTP server on loopback (no TLS, no auth) that keeps what it receives. */
export async function startSmtpCatcher(options: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const mails: ReceivedMail[] = [];
  const waiting: Array<{ to: string; resolve: (m: ReceivedMail) => void }> = [];
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onRcptTo(address, _session, done) {
      const code = options.refuseRecipient?.(address.address);
      if (code === undefined) return done();
      done(Object.assign(new Error(`${address.address}: mailbox unavailable`), { responseCode: code }));
    },
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      stream.on('end', () => {
        const refused = options.refuseData?.();
        if (refused !== undefined) return done(Object.assign(new Error('try again later'), { responseCode: refused }));
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
