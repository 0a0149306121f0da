/**
 * A local SMTP server for the tests (smtp-server on 127.0.0.1): records every message it accepts,
 * decoded enough to assert on — the MIME encoded-word subject, the text body (base64,
 * quoted-printable or 8bit) and, of a multipart/mixed mail, its attachments (name, type, bytes). It
 * can refuse recipients and require a login, like a real server.
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
  /** Files attached to a multipart/mixed mail, in order. */
  attachments: ReceivedAttachment[];
  raw: string;
}

export interface ReceivedAttachment {
  /** The decoded file name (RFC 2231 `filename*` or a plain `filename`). */
  filename: string;
  contentType: string;
  content: Buffer;
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

function decodeBytes(body: string, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return Buffer.from(body.replace(/\s+/g, ''), 'base64');
    case 'quoted-printable':
      return Buffer.from(
        body.replace(/=\r?\n/g, '').replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16))),
        'latin1',
      );
    default:
      return Buffer.from(body, 'latin1');
  }
}

const decodeBody = (body: string, encoding: string): string => decodeBytes(body, encoding).toString('utf8');

/** A part's headers (lower-case names, unfolded, encoded words decoded) and its body. */
function splitPart(source: string): { headers: Record<string, string>; body: string } {
  const split = source.indexOf('\r\n\r\n');
  const head = split >= 0 ? source.slice(0, split) : source;
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = decodeWords(line.slice(colon + 1).trim());
  }
  return { headers, body: split >= 0 ? source.slice(split + 4) : '' };
}

/**
 * A parameter of a header (`filename` of Content-Disposition): RFC 2231 `filename*0*=utf-8''…; filename*1*=…`
 * joined and percent-decoded, else the plain (quoted) value.
 */
export function headerParameter(header: string, name: string): string {
  const parts = [...header.matchAll(new RegExp(`${name}\\*(\\d+)?(\\*)?=("[^"]*"|[^;]*)`, 'gi'))]
    .map((m) => ({ index: Number(m[1] ?? 0), encoded: Boolean(m[2]), value: m[3].replace(/^"|"$/g, '') }))
    .sort((a, b) => a.index - b.index);
  if (parts.length) {
    const joined = parts.map((p) => (p.encoded ? p.value.replace(/^[\w-]*'[\w-]*'/, '') : p.value)).join('');
    return parts.some((p) => p.encoded) ? decodeURIComponent(joined) : joined;
  }
  const plain = new RegExp(`${name}=("[^"]*"|[^;]*)`, 'i').exec(header);
  return plain ? plain[1].replace(/^"|"$/g, '').trim() : '';
}

/** Splits a raw message into decoded headers, its text and (multipart/mixed) its attachments. */
export function parseMessage(raw: Buffer): Pick<ReceivedMail, 'headers' | 'subject' | 'text' | 'attachments' | 'raw'> {
  const source = raw.toString('latin1');
  const { headers, body } = splitPart(source);
  const type = headers['content-type'] ?? 'text/plain';
  const attachments: ReceivedAttachment[] = [];
  let text = '';
  if (/^multipart\//i.test(type)) {
    const boundary = headerParameter(type, 'boundary');
    for (const chunk of body.split(`--${boundary}`).slice(1)) {
      if (chunk.startsWith('--')) break;
      const part = splitPart(chunk.replace(/^\r\n/, '').replace(/\r\n$/, ''));
      const partType = part.headers['content-type'] ?? 'text/plain';
      const disposition = part.headers['content-disposition'] ?? '';
      if (/^text\/plain/i.test(partType) && !/attachment/i.test(disposition)) {
        text = decodeBody(part.body, part.headers['content-transfer-encoding'] ?? '7bit');
      } else {
        attachments.push({
          filename: headerParameter(disposition, 'filename') || headerParameter(partType, 'name'),
          contentType: partType.split(';')[0].trim().toLowerCase(),
          content: decodeBytes(part.body, part.headers['content-transfer-encoding'] ?? '7bit'),
        });
      }
    }
  } else if (/^text\/plain/i.test(type)) {
    text = decodeBody(body, headers['content-transfer-encoding'] ?? '7bit');
  } else {
    throw new Error(`the local SMTP server expects text or multipart/mixed mails, got ${type}`);
  }
  text = text.replace(/\r\n/g, '\n').replace(/\n$/, '');
  return { headers, subject: headers.subject ?? '', text, attachments, raw: Buffer.from(source, 'latin1').toString('utf8') };
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
