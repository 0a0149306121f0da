/**
 * Answers a call's file (`FileAnswer`, server/calls/call-table.ts): attachment headers with the Japanese
 * file name, the body sent whole or streamed chunk by chunk as the client reads, trailers at its end.
 */
import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';
import type { FileAnswer } from '../calls/call-table';

/**
 * The `Content-Disposition` of a download: an ASCII fallback and the real name as RFC 5987 UTF-8.
 * @example contentDisposition('受注一覧.csv', 'order.csv') // `attachment; filename="order.csv"; filename*=UTF-8''%E5%8F%97%E6%B3%A8%E4%B8%80%E8%A6%A7.csv`
 */
export function contentDisposition(name: string, asciiName: string): string {
  const fallback = asciiName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

async function* startingWith<T>(first: T, rest: AsyncIterator<T>): AsyncGenerator<T> {
  try {
    yield first;
    for (let next = await rest.next(); !next.done; next = await rest.next()) yield next.value;
  } finally {
    // The client went away (or the body ended): let the producer close what it holds.
    await rest.return?.();
  }
}

/** Sends a file answer; a streamed body's first chunk is awaited here, so its failure is still a JSON error. */
export async function sendFile(reply: FastifyReply, { file }: FileAnswer): Promise<FastifyReply> {
  let body: Buffer | Readable;
  if (Buffer.isBuffer(file.body)) body = file.body;
  else {
    const chunks = file.body[Symbol.asyncIterator]();
    const first = await chunks.next();
    body = first.done ? Buffer.alloc(0) : Readable.from(startingWith(first.value, chunks), { objectMode: false });
  }
  reply
    .type(file.contentType)
    .header('content-disposition', contentDisposition(file.name, file.asciiName))
    .header('cache-control', 'no-store')
    .headers(file.headers ?? {});
  for (const [name, value] of Object.entries(file.trailers ?? {})) reply.trailer(name, (_reply, _payload, done) => done(null, value()));
  return reply.send(body);
}
