import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A real SMTP server on loopback for tests (smtp-server, from nodemailer's maintainers): it asks
 * for the user and password of its address, keeps every mail it accepts (parsed by mailparser,
 * with the envelope's recipients and the raw text), and can be stopped and started again on the
 * same port (a mail server that is down for a while).
 *
 *   const smtp = await startTestSmtp();
 *   const app = await createTestApp({ SMTP_URL: smtp.url });
 *   const [mail] = await smtp.waitFor(1);
 */
export interface ReceivedMail {
  parsed: ParsedMail;
  /** RCPT TO of the SMTP conversation: who really receives it, whatever the headers say. */
  recipients: string[];
  raw: string;
}

export interface TestSmtp {
  /** smtp://user:password@127.0.0.1:port */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** Resolves with the mails once at least `count` arrived; fails after `timeoutMs`. */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  /** The mails sent to `address`. */
  to(address: string): ReceivedMail[];
  /** Refuses the next mails to `address` with a permanent error (550), or accepts them again. */
  refuse(address: string, refuse?: boolean): void;
  stop(): Promise<void>;
  /** Listens again on the same port. */
  start(): Promise<void>;
}

const USER = 'manna-test';
const PASSWORD = 'smtp-test-password';

export async function startTestSmtp(
  port = 0,
  /** Each mail is accepted this long after it arrived (a slow mail server). */
  { delayMs = 0 }: { delayMs?: number } = {},
): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const refused = new Set<string>();
  const waiters = new Set<() => void>();
  const options: SMTPServerOptions = {
    authMethods: ['PLAIN', 'LOGIN'],
    allowInsecureAuth: true, // loopback only
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === USER && auth.password === PASSWORD) callback(null, { user: USER });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        callback(Object.assign(new Error('No such mailbox here'), { responseCode: 550 }));
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            setTimeout(() => {
              received.push({ parsed, recipients: session.envelope.rcptTo.map((r) => r.address), raw });
              for (const wake of waiters) wake();
              callback();
            }, delayMs);
          },
          (err: Error) => callback(err),
        );
      });
    },
  };
  let server = new SMTPServer(options);
  const listen = (p: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(p, '127.0.0.1', () => resolve((server.server.address() as AddressInfo).port));
    });
  const actualPort = await listen(port);
  return {
    url: `smtp://${USER}:${PASSWORD}@127.0.0.1:${actualPort}`,
    port: actualPort,
    received,
    to: (address) => received.filter((m) => m.recipients.includes(address.toLowerCase())),
    refuse(address, refuse = true) {
      if (refuse) refused.add(address.toLowerCase());
      else refused.delete(address.toLowerCase());
    },
    waitFor(count, timeoutMs = 10_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          if (received.length < count) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(received.slice());
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Expected ${count} mail(s), got ${received.length} in ${timeoutMs} ms`));
        }, timeoutMs);
        waiters.add(check);
        check();
      });
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
    async start() {
      server = new SMTPServer(options);
      await listen(actualPort);
    },
  };
}
