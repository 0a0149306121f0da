/**
 * Writes the bank's answer to our request file, as a JACCS result file would come back: the request's records with each
 * data record's 振替結果コード set (per 顧客番号, default 0), each trailer's 振替済 / 振替不能 counts and sums recomputed, and
 * CR LF after every record (or none). Used by the round-trip tests to read our own file back.
 */
import iconv from 'iconv-lite';
import { readData, RECORD_LENGTH, trailerOf, trailerRecord } from '../../lib/zengin/format';

export interface ResultOptions {
  /** 振替結果コード per 顧客番号 (20 digits); a code not given is 0 (振替済). */
  codes?: Readonly<Record<string, string>>;
  /** CR LF after each record (result files usually have them); false: none. */
  crlf?: boolean;
}

/** The request's records (120-byte text each). */
export function recordsOf(request: Buffer): string[] {
  const text = iconv.decode(request, 'cp932').replace(/\r\n/g, '');
  const out: string[] = [];
  for (let at = 0; at < text.length; at += RECORD_LENGTH) out.push(text.slice(at, at + RECORD_LENGTH));
  return out;
}

/** Records joined into a file's bytes. */
export const fileOf = (records: readonly string[], crlf = true): Buffer =>
  iconv.encode(records.map((r) => (crlf ? `${r}\r\n` : r)).join(''), 'cp932');

/**
 * The result file of a request.
 * @example zenginResult(requestBytes, { codes: { '00000000000000000002': '1' } })
 */
export function zenginResult(request: Buffer, { codes = {}, crlf = true }: ResultOptions = {}): Buffer {
  const out: string[] = [];
  let block: { amount: number; result: string }[] = [];
  for (const record of recordsOf(request)) {
    if (record[0] === '2') {
      const code = codes[readData(record).customerNo] ?? '0';
      const answered = `${record.slice(0, 111)}${code}${record.slice(112)}`;
      block.push({ amount: readData(answered).amount, result: code });
      out.push(answered);
    } else if (record[0] === '8') {
      out.push(trailerRecord(trailerOf(block)));
      block = [];
    } else {
      if (record[0] === '1') block = [];
      out.push(record);
    }
  }
  return fileOf(out, crlf);
}
