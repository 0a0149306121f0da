/**
 * A local SMTP server for the tests (smtp-server on 127.0.0.1): records every message it accepts,
 * decoded enough to assert on — the MIME encoded-word subject and the text body (base64,
 * quoted-printable or 8bit). It can refuse recipients and require a login, like a real server.
 */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  /** Envelope sender and recipients (MAIL FROM / RCPT TO). */
  envelopeFrom: string;
  envelopeTo: string[];
  /** The user that logged in, when the server asked for a login. */
  user: string | undefined;
  /** Header values by lower-case name, unfolded and decoded. */
  headers: Record<string, string>;
  subject: string;
  text: string;
  raw: string;
}

export interface LocalSmtp {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export interface LocalSmtpOptions {
  /** Fixed port (default: any free one). */
  port?: number;
  /** Require this login (AUTH PLAIN/LOGIN over the plain connection). */
  login?: { user: string; pass: string };
  /** Recipients the server refuses with 550. */
  refuse?: RegExp;
}

/** RFC 2047 encoded words (`=?UTF-8?B?…?=`), adjacent ones joined before decoding the bytes. */
export function decodeWords(value: string): string {
  const WORD = /=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g;
  const joined = value.replace(/(\?=)\s+(?==\?)/g, '$1');
  return joined.replace(/(?:=\?[^?]+\?[BbQq]\?[^?]*\?=)+/g, (run) => {
    const bytes = [...run.matchAll(WORD)].map(([, , encoding, text]) =>
      encoding.toUpperCase() === 'B'
        ? Buffer.from(text, 'base64')
        : Buffer.from(text.replace(/_/g, ' ').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))), 'latin1'),
    );
    return Buffer.concat(bytes).toString('utf8');
  });
}

function decodeBody(body: string, encoding: string): string {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      ).toString('utf8');
    default:
      return Buffer.from(body, 'latin1').toString('utf8');
  }
}

/** Splits a raw single-part message into decoded headers and text. */
export function parseMessage(raw: Buffer): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'raw'> {
  const source = raw.toString('latin1');
  const split = source.indexOf('\r\n\r\n');
  const head = split >= 0 ? source.slice(0, split) : source;
  const body = split >= 0 ? source.slice(split + 4) : '';
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  const type = headers['content-type'] ?? 'text/plain';
  if (!/^text\/plain/i.test(type)) throw new Error(`the local SMTP server expects single-part text mails, got ${type}`);
  const text = decodeBody(body, headers['content-transfer-encoding'] ?? '7bit').replace(/\r\n/g, '\n').replace(/\n$/, '');
  return { headers, subject: headers.subject ?? '', text, raw: Buffer.from(source, 'latin1').toString('utf8') };
}

/**
 * Starts the server; `close()` stops it.
 * @example const smtp = await startLocalSmtp(); … smtp.received[0].subject; await smtp.close();
 */
export async function startLocalSmtp(options: LocalSmtpOptions = {}): Promise<LocalSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    logger: false,
    secure: false,
    disabledCommands: options.login ? ['STARTTLS'] : ['STARTTLS', 'AUTH'],
    authOptional: !options.login,
    allowInsecureAuth: true,
    onAuth(auth, _session, callback) {
      const ok = options.login && auth.username === options.login.user && auth.password === options.login.pass;
      if (!ok) {
        callback(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
        return;
      }
      callback(null, { user: auth.username });
    },
    onRcptTo(address, _session, callback) {
      if (options.refuse?.test(address.address)) {
        callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
        return;
      }
      callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          ...parseMessage(Buffer.concat(chunks)),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => resolve());
  });
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    port,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
