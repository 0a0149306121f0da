/**
 * The client side of `{r}_csv` (issue 11): counting what arrives (records, replaced characters) while the
 * file streams in, and the hook behind the 「CSV出力」 dialog of every list.
 */
import { useCallback, useRef, useState } from 'react';
import { download, CallError, type Params } from '../api/fetcher';
import { CSV_HEADERS, MESSAGES, type CsvCols, type CsvEncoding } from '../../protocol';
import { resourceCall, type FileCallName } from '../../protocol/calls';
import type { ResourceDef } from '../../resources/types';

export interface CsvCounter {
  /** Reads one received piece of the file. */
  push(chunk: Uint8Array): void;
  /** Records completed so far (the header row included). */
  readonly records: number;
  /** Replacement marks (〓) seen so far in a cp932 file. */
  readonly replaced: number;
}

const QUOTE = 0x22;
const LF = 0x0a;
const isCp932Lead = (byte: number) => (byte >= 0x81 && byte <= 0x9f) || (byte >= 0xe0 && byte <= 0xfc);

/**
 * Counts a CSV's records as its bytes arrive: a line feed outside quotes ends one (a quote or line feed
 * byte is never the second byte of a cp932 or UTF-8 character). In cp932 it also counts 〓 (0x81 0xAC),
 * the mark the server writes for a character cp932 cannot hold.
 * @example const c = csvCounter('cp932'); c.push(bytes); c.records // 3
 */
export function csvCounter(encoding: CsvEncoding): CsvCounter {
  let records = 0;
  let replaced = 0;
  let quoted = false;
  let lead = -1;
  return {
    push(chunk) {
      for (const byte of chunk) {
        if (lead >= 0) {
          if (lead === 0x81 && byte === 0xac) replaced += 1;
          lead = -1;
        } else if (encoding === 'cp932' && isCp932Lead(byte)) lead = byte;
        else if (byte === QUOTE) quoted = !quoted;
        else if (byte === LF && !quoted) records += 1;
      }
    },
    get records() {
      return records;
    },
    get replaced() {
      return replaced;
    },
  };
}

export type CsvExportPhase = 'idle' | 'running' | 'done' | 'cancelled' | 'failed';

export interface CsvExportState {
  phase: CsvExportPhase;
  /** Data rows received (the header row not counted). */
  rows: number;
  /** Rows the server announced (`X-Csv-Rows`), once known. */
  total?: number;
  bytes: number;
  /** Characters cp932 could not hold, written as 〓. */
  replaced: number;
  fileName?: string;
  error?: string;
  /** The HTTP status of a refusal (409: a Yayoi period exported before). */
  status?: number;
}

const IDLE: CsvExportState = { phase: 'idle', rows: 0, bytes: 0, replaced: 0 };

/**
 * Downloads a CSV a call answers (`{r}_csv`, `download_table`, `export_yayoi`): progress as it streams (records against
 * `X-Csv-Rows`, 〓 in cp932), `cancel` to stop, the file saved when complete; a refusal's message in `state.error` and its
 * status in `state.status`. `header: false` for a file without a header row (the Yayoi journal).
 * @example const csv = useCsvDownload(); await csv.start('download_table', { table: 'order', from, to }, 'cp932');
 */
export function useCsvDownload() {
  const [state, setState] = useState<CsvExportState>(IDLE);
  const controller = useRef<AbortController | null>(null);
  const start = useCallback(async (call: FileCallName, params: Params, enc: CsvEncoding, { header = true }: { header?: boolean } = {}): Promise<boolean> => {
    const abort = new AbortController();
    controller.current = abort;
    const counter = csvCounter(enc);
    const headerRows = header ? 1 : 0;
    setState({ ...IDLE, phase: 'running' });
    try {
      const file = await download(call, { ...params, enc }, {
        signal: abort.signal,
        onChunk: (chunk, bytes, headers) => {
          counter.push(chunk);
          const total = Number(headers.get(CSV_HEADERS.rows) ?? Number.NaN);
          setState((s) => ({ ...s, bytes, rows: Math.max(0, counter.records - headerRows), total: Number.isFinite(total) ? total : undefined, replaced: counter.replaced }));
        },
      });
      if (file) setState((s) => ({ ...s, phase: 'done', fileName: file.fileName }));
      else setState((s) => ({ ...s, phase: abort.signal.aborted ? 'cancelled' : 'failed', error: abort.signal.aborted ? undefined : MESSAGES.downloadFailed }));
      return Boolean(file);
    } catch (error) {
      setState((s) => ({ ...s, phase: 'failed', error: error instanceof CallError ? error.message : MESSAGES.internal, status: error instanceof CallError ? error.status : undefined }));
      return false;
    } finally {
      controller.current = null;
    }
  }, []);
  const cancel = useCallback(() => controller.current?.abort(), []);
  const reset = useCallback(() => setState(IDLE), []);
  return { state, start, cancel, reset };
}

/**
 * Exports a list as CSV with its current query (keyword, filters, sort, fixed parameters) through `useCsvDownload`.
 * @example const csv = useCsvExport(orderResource, list.exportQuery); await csv.start('list', 'cp932');
 */
export function useCsvExport(def: ResourceDef, query: Params | undefined) {
  const csv = useCsvDownload();
  const { start: startDownload } = csv;
  const start = useCallback(async (cols: CsvCols, enc: CsvEncoding) => {
    if (query) await startDownload(resourceCall(def, 'csv'), { ...query, cols }, enc);
  }, [def, query, startDownload]);
  return { ...csv, start };
}
