/**
 * The import kind `jaccs_result` (JACCS 取込, /system/jaccs): the direct-debit result file (全銀 種別91).
 * - `records(bytes)`: every record exactly 120 bytes, with or without CR LF after each (a lone CR or LF refused), several
 *   header…trailer blocks then one end record; each trailer's 合計・振替済・振替不能 counts and sums checked against its own
 *   data records (振替済 = result code 0). Anything wrong refuses the file whole (400 naming the line and what).
 * - `apply`: each data record matched to the request (server/jaccs/request.ts) by 顧客番号, the request's 引落日 (the
 *   header's MMDD) and the amount — the latest request of each closing (a 再発行 replaces the earlier file); an unknown
 *   顧客番号 or another amount is an error on that row. Code 0 → a 口座振替 payment slip (`payment`, kind `debit`, dated the
 *   debit date) through the one write path (`saveBatch`) and allocated to its invoice (`allocateMany`, the 消込 rules, all the chunk's payments at once);
 *   other codes → no payment, listed with their meaning (`jaccs_failure_lst`). Every record flags its customer's
 *   `cl_debit_result` (code and date: 振替不能 customers are listed by the customer list's filter) and its request row.
 * - `finish`: a record whose request row was settled by an earlier import → 「この振替結果は取込済みです…」; on commit the
 *   requests are stamped `jr_result_at`.
 */
import iconv from 'iconv-lite';
import { formatDateTime, formatMoney } from '../../../lib/format';
import type { ImportAction, ImportError, ImportNotice, ImportNoticeLink } from '../../../lib/imports/kinds';
import { filteredListPathOf } from '../../../lib/list/resource-paths';
import { clientResource } from '../../../lib/resources/client';
import { titleOf } from '../../../lib/resources/types';
import { JACCS_RESULT_COLUMNS } from '../../../lib/imports/columns/jaccs_result';
import { paymentResource } from '../../../lib/resources/payment';
import { debitResultText, NUMERIC_FIELDS, readData, readTrailer, RECORD_LENGTH, type ZenginTrailer } from '../../../lib/zengin/format';
import { chunksOf, updateIntegersEach } from '../../db/bulk-write';
import type { ResourceRow } from '../../db/schema';
import { ApiError, badRequest } from '../../http/api-error';
import { saveBatch, type BulkEntry, systemUpdate } from '../../resources';
import { allocateMany, carryingInvoices, type AllocationChange } from '../../sales';
import type { ChunkOutcome, ImportKindHandler, ImportRow, ImportRun } from '../kind';
import { nowIso } from '../../http/clock';

const labelOf = (field: string): string => JACCS_RESULT_COLUMNS.find((c) => c.field === field)?.label ?? '';

/** A refusal of the file naming its line. */
const lineRefusal = (line: number, message: string): ApiError => badRequest(`振替結果ファイルの ${line} 行目: ${message}`, { line });

/** The file's records as bytes, each with its 1-based line: CR LF after each, or none at all. */
function splitRecords(bytes: Buffer): Buffer[] {
  // A DOS end-of-file mark after the last record is tolerated.
  const body = bytes.length > 0 && bytes[bytes.length - 1] === 0x1a ? bytes.subarray(0, -1) : bytes;
  if (body.length === 0) throw badRequest('振替結果ファイルが空です。');
  if (!body.includes(0x0a) && !body.includes(0x0d)) {
    if (body.length % RECORD_LENGTH !== 0) {
      // Records out of step: the first one whose type is not a record type, else the short last one.
      let line = Math.ceil(body.length / RECORD_LENGTH);
      for (let at = 0, n = 1; at < body.length; at += RECORD_LENGTH, n += 1) {
        if (!'1289'.includes(String.fromCharCode(body[at]))) {
          line = n - 1;
          break;
        }
      }
      throw badRequest(`改行のないファイルの長さ ${body.length} バイトが 120 バイトの倍数ではありません。${line} 行目あたりのレコードが 120 バイトではありません。`, { line });
    }
    const records: Buffer[] = [];
    for (let at = 0; at < body.length; at += RECORD_LENGTH) records.push(body.subarray(at, at + RECORD_LENGTH));
    return records;
  }
  const records: Buffer[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i += 1) {
    const byte = body[i];
    if (byte === 0x0d && body[i + 1] === 0x0a) {
      records.push(body.subarray(start, i));
      start = i + 2;
      i += 1;
    } else if (byte === 0x0d || byte === 0x0a) {
      throw lineRefusal(records.length + 1, '改行が CR LF ではありません（全銀フォーマットはレコードごとに CR LF、または改行なし）。');
    }
  }
  if (start < body.length) records.push(body.subarray(start));
  return records;
}

/**
 * The data records of a result file as import rows (row = the record's line), or a 400 naming the first bad line.
 * @example resultRecords(readFileSync('result.txt')) // [{ row: 2, values: { debit_code: '0000…01', amount: '5400', result: '0', … } }]
 */
export function resultRecords(bytes: Buffer): ImportRow[] {
  const rows: ImportRow[] = [];
  let block: { line: number; mmdd: string; data: { amount: number; result: string }[] } | undefined;
  let blocks = 0;
  let ended = false;
  for (const [index, raw] of splitRecords(bytes).entries()) {
    const line = index + 1;
    if (raw.length !== RECORD_LENGTH) throw lineRefusal(line, `レコードの長さが ${raw.length} バイトです（全銀フォーマットは 120 バイト）。`);
    const record = iconv.decode(raw, 'cp932');
    if (record.length !== RECORD_LENGTH) throw lineRefusal(line, '全角文字が含まれています（全銀フォーマットは半角文字だけです）。');
    if (ended) throw lineRefusal(line, 'エンドレコード（9）のあとにレコードがあります。');
    const type = record[0];
    const fields = NUMERIC_FIELDS[type];
    if (!fields) throw lineRefusal(line, `レコード種別「${type}」は全銀フォーマットにありません（1 ヘッダー・2 データ・8 トレーラー・9 エンド）。`);
    for (const [from, length, name] of fields) {
      const value = record.slice(from - 1, from - 1 + length);
      if (!/^\d+$/.test(value)) throw lineRefusal(line, `${name}（${from}〜${from + length - 1} バイト目）が数字ではありません（「${value}」）。`);
    }
    if (type === '1') {
      if (block) throw lineRefusal(line, `ヘッダーレコードの前のブロック（${block.line} 行目から）にトレーラーレコードがありません。`);
      if (record.slice(1, 3) !== '91') throw lineRefusal(line, `種別コード「${record.slice(1, 3)}」は口座振替（91）ではありません。`);
      block = { line, mmdd: record.slice(54, 58), data: [] };
      blocks += 1;
    } else if (type === '2') {
      if (!block) throw lineRefusal(line, 'データレコードの前にヘッダーレコードがありません。');
      const d = readData(record);
      block.data.push({ amount: d.amount, result: d.result });
      rows.push({
        row: line,
        values: {
          block: String(blocks), debit_mmdd: block.mmdd, bank_code: d.bankCode, branch_code: d.branchCode, account_type: d.accountType, account_no: d.accountNo,
          holder: d.holder, amount: String(d.amount), debit_code: d.customerNo, result: d.result,
        },
      });
    } else if (type === '8') {
      if (!block) throw lineRefusal(line, 'トレーラーレコードの前にヘッダーレコードがありません。');
      checkTrailer(line, readTrailer(record), block.data);
      block = undefined;
    } else {
      if (block) throw lineRefusal(line, `エンドレコードの前のブロック（${block.line} 行目から）にトレーラーレコードがありません。`);
      if (blocks === 0) throw lineRefusal(line, 'ヘッダーレコードがありません。');
      ended = true;
    }
  }
  if (!ended) throw badRequest('振替結果ファイルにエンドレコード（9）がありません。ファイルが途中で切れていないか確かめてください。');
  return rows;
}

/** A trailer against its block's data records: 合計, 振替済 (code 0) and 振替不能 (other codes), counts and sums. */
function checkTrailer(line: number, trailer: ZenginTrailer, data: readonly { amount: number; result: string }[]): void {
  const sum = (list: readonly { amount: number }[]) => list.reduce((s, r) => s + r.amount, 0);
  const done = data.filter((r) => r.result === '0');
  const failed = data.filter((r) => r.result !== '0');
  const checks: [string, number, number, boolean][] = [
    ['合計件数', trailer.count, data.length, false], ['合計金額', trailer.total, sum(data), true],
    ['振替済件数', trailer.doneCount, done.length, false], ['振替済金額', trailer.doneTotal, sum(done), true],
    ['振替不能件数', trailer.failedCount, failed.length, false], ['振替不能金額', trailer.failedTotal, sum(failed), true],
  ];
  for (const [name, stated, counted, money] of checks) {
    if (stated !== counted) {
      const show = (n: number) => (money ? formatMoney(n) : `${n}件`);
      throw lineRefusal(line, `トレーラーレコードの${name} ${show(stated)} がデータレコードの集計 ${show(counted)} と合いません。`);
    }
  }
}

/** What the kind keeps across the chunks of a run. */
interface JaccsState {
  /** Request rows matched so far (a row is matched once per file). */
  matched: Set<number>;
  /** Requests touched (stamped on commit). */
  requests: Set<number>;
  /** Rows settled by an earlier import: when. */
  settledBefore: string[];
  /** The failed debits' result codes and debit dates (the customer list's filters of the notices' link). */
  failedCodes: Set<string>;
  failedDates: Set<string>;
}

function stateOf(run: ImportRun): JaccsState {
  let state = run.state.get('jaccs') as JaccsState | undefined;
  if (!state) {
    state = { matched: new Set(), requests: new Set(), settledBefore: [], failedCodes: new Set(), failedDates: new Set() };
    run.state.set('jaccs', state);
  }
  return state;
}

/** The request rows of these 顧客番号 in the latest request of each closing, with the request's debit date. */
async function candidatesOf(run: ImportRun, codes: readonly string[]): Promise<Map<string, ResourceRow[]>> {
  const out = new Map<string, ResourceRow[]>();
  for (const chunk of chunksOf([...new Set(codes)], 500)) {
    const rows = await run.trx.selectFrom('jaccs_request_row').innerJoin('jaccs_request', 'jaccs_request.jr_id', 'jaccs_request_row.jrr_jr_id')
      .select(['jrr_id', 'jrr_jr_id', 'jrr_cls_id', 'jrr_cl_id', 'jrr_bl_id', 'jrr_debit_code', 'jrr_amount', 'jrr_result', 'jr_debit_date', 'jr_result_at'])
      .where('jrr_debit_code', 'in', chunk)
      // Only each closing's latest request: a 再発行 replaces the file sent before.
      .where((eb) => eb('jr_id', '=', eb.selectFrom('jaccs_request as latest').select((l) => l.fn.max<number>('latest.jr_id').as('m')).whereRef('latest.jr_cls_id', '=', 'jaccs_request.jr_cls_id')))
      .orderBy('jrr_jr_id', 'desc').execute();
    for (const r of rows) out.set(r.jrr_debit_code, [...(out.get(r.jrr_debit_code) ?? []), r]);
  }
  return out;
}

/** A refusal of the write path as the import's errors: its fields by our columns' labels (the payment's 入金日 is the debit date). */
function errorsOf(row: number, error: unknown): ImportError[] {
  if (!(error instanceof ApiError)) throw error;
  const fields = (error.extra.fields ?? {}) as Record<string, string>;
  const named = Object.entries(fields).map(([field, message]) => ({
    row, column: field.endsWith('date') ? labelOf('debit_mmdd') : field.endsWith('amount') ? labelOf('amount') : '', message,
  }));
  return named.length > 0 ? named : [{ row, column: '', message: error.message }];
}

interface Matched {
  row: ImportRow;
  request: ResourceRow;
}

/**
 * Every debit that failed as a notice — its customer, amount and the result code's meaning — so the preview and the
 * result list them (one query for the customers' names).
 */
async function failuresOf(run: ImportRun, failed: readonly Matched[]): Promise<ImportNotice[]> {
  if (failed.length === 0) return [];
  const state = stateOf(run);
  const names = new Map<number, string>();
  for (const chunk of chunksOf([...new Set(failed.map((m) => Number(m.request.jrr_cl_id)))], 1000)) {
    for (const c of await run.trx.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name']).where('cl_id', 'in', chunk).execute()) names.set(c.cl_id, titleOf(clientResource, c));
  }
  return failed.map((m) => {
    const code = m.row.values.result;
    state.failedCodes.add(code);
    state.failedDates.add(String(m.request.jr_debit_date));
    const clientId = Number(m.request.jrr_cl_id);
    return { row: m.row.row, cl_id: clientId, name: names.get(clientId) ?? '', amount: Number(m.request.jrr_amount), message: `${code} ${debitResultText(code)}` };
  });
}

/** The customer list filtered on the customers these failures flagged (their result codes, their debit dates). */
function noticeLink(run: ImportRun): ImportNoticeLink | undefined {
  const state = stateOf(run);
  const dates = [...state.failedDates].sort();
  const path = dates.length === 0 ? undefined
    : filteredListPathOf(clientResource, { debit_result: [...state.failedCodes].sort(), debit_result_date: [dates[0], dates[dates.length - 1]] });
  return path ? { label: '振替不能の顧客を顧客一覧で見る', path } : undefined;
}

async function apply(run: ImportRun, rows: readonly ImportRow[]): Promise<ChunkOutcome> {
  const state = stateOf(run);
  const actions: ImportAction[] = rows.map(() => 'skip');
  const errors: ImportError[] = [];
  const candidates = await candidatesOf(run, rows.map((r) => r.values.debit_code));
  const matched: Matched[] = [];
  for (const [i, row] of rows.entries()) {
    const { debit_code: code, debit_mmdd: mmdd } = row.values;
    const amount = Number(row.values.amount);
    const ofDay = (candidates.get(code) ?? []).filter((c) => String(c.jr_debit_date).slice(5).replace('-', '') === mmdd && !state.matched.has(Number(c.jrr_id)));
    if (ofDay.length === 0) {
      errors.push({ row: row.row, column: labelOf('debit_code'), message: `顧客番号 ${code} は引落日 ${mmdd.slice(0, 2)}/${mmdd.slice(2)} の口座振替依頼データにありません。` });
      continue;
    }
    const request = ofDay.find((c) => Number(c.jrr_amount) === amount && String(c.jrr_result) === '') ?? ofDay.find((c) => Number(c.jrr_amount) === amount);
    if (!request) {
      errors.push({ row: row.row, column: labelOf('amount'), message: `引落金額 ${formatMoney(amount)} が依頼データの ${formatMoney(Number(ofDay[0].jrr_amount))} と一致しません（顧客番号 ${code}）。` });
      continue;
    }
    state.matched.add(Number(request.jrr_id));
    if (String(request.jrr_result) !== '') {
      state.settledBefore.push(String(request.jr_result_at));
      continue;
    }
    state.requests.add(Number(request.jrr_jr_id));
    actions[i] = row.values.result === '0' ? 'insert' : 'skip';
    matched.push({ row, request });
  }

  // Code 0: a 口座振替 payment slip per record, through the one write path, then allocated to its invoice.
  const debited = matched.filter((m) => m.row.values.result === '0');
  const entries = debited.map((m): BulkEntry => ({
    values: {
      cl_id: Number(m.request.jrr_cl_id), date: String(m.request.jr_debit_date), amount: Number(m.request.jrr_amount), kind: 'debit',
      biko: `口座振替（JACCS）顧客番号 ${m.row.values.debit_code}`,
    },
  }));
  const refusedAt = new Set<number>();
  const { ids } = entries.length === 0 ? { ids: [] as number[] } : await saveBatch(run.trx, run.actor, paymentResource, entries, {
    answer: false,
    refused: (index, error) => {
      refusedAt.add(index);
      errors.push(...errorsOf(debited[index].row.row, error));
    },
  });
  const paymentOf = new Map<number, number>();
  const allocating = debited.flatMap((m, index) => {
    if (refusedAt.has(index) || !ids[index]) return [];
    paymentOf.set(Number(m.request.jrr_id), ids[index]);
    return [{ m, py_id: ids[index], bl_id: Number(m.request.jrr_bl_id) }];
  });
  // Each to its invoice — or, when a later closing carried it meanwhile, to the invoice that carries it now (issue 19) —
  // up to that invoice's current 残額 (the rest stays unallocated): the 残額 read at once, then the payments allocated
  // together by the one 消込 path (its locks and checks; a refusal is that row's error).
  const carriers = await carryingInvoices(run.trx, allocating.map((a) => a.bl_id));
  for (const a of allocating) a.bl_id = carriers.get(a.bl_id) ?? a.bl_id;
  const openOf = new Map<number, number>();
  for (const chunk of chunksOf([...new Set(allocating.map((a) => a.bl_id))], 1000)) {
    const rows = await run.trx.selectFrom('billing').select(['bl_id', 'bl_open']).where('bl_id', 'in', chunk).where('deleted', '=', 0).execute();
    for (const r of rows) openOf.set(r.bl_id, (r.bl_open ?? 0));
  }
  const changes: (AllocationChange & { row: number })[] = [];
  for (const a of allocating) {
    const open = openOf.get(a.bl_id) ?? 0;
    const take = Math.min(open, Number(a.m.request.jrr_amount));
    if (take <= 0) continue;
    openOf.set(a.bl_id, open - take);
    changes.push({ py_id: a.py_id, lines: [{ bl_id: a.bl_id, amount: take }], row: a.m.row.row });
  }
  await allocateMany(run.trx, run.actor, changes, { refused: (index, error) => errors.push(...errorsOf(changes[index].row, error)) });

  // Every record: its request row settled and its customer flagged with the code and the debit date — set-based, the
  // customers grouped by what they are given (a customer twice in the file keeps its last record's, as read in order).
  const settled = new Map<number, { jrr_py_id: number | null }>();
  const resultOf = new Map<string, number[]>();
  const flagOf = new Map<number, ResourceRow>();
  for (const m of matched) {
    const code = m.row.values.result;
    const date = String(m.request.jr_debit_date);
    const requestRow = Number(m.request.jrr_id);
    const clientId = Number(m.request.jrr_cl_id);
    settled.set(requestRow, { jrr_py_id: paymentOf.get(requestRow) ?? null });
    resultOf.set(code, [...(resultOf.get(code) ?? []), requestRow]);
    flagOf.set(clientId, { cl_debit_result: code, cl_debit_result_date: date });
  }
  await updateIntegersEach(run.trx, 'jaccs_request_row', 'jrr_id', settled);
  for (const [code, requestRows] of resultOf) {
    for (const chunk of chunksOf(requestRows, 1000)) await run.trx.updateTable('jaccs_request_row').set({ jrr_result: code }).where('jrr_id', 'in', chunk).execute();
  }
  // An audit row per record, each naming its own result; the result is no field of the customer's form, so its
  // edit-conflict token stays.
  await systemUpdate(run.trx, run.actor, clientResource, matched.map((m) => {
    const code = m.row.values.result;
    const clientId = Number(m.request.jrr_cl_id);
    return {
      id: clientId, before: {}, set: flagOf.get(clientId)!,
      changes: { cl_debit_result: [null, `${code} ${debitResultText(code)}`], cl_debit_result_date: [null, String(m.request.jr_debit_date)] },
    };
  }), { modified: 'keep' });
  return { actions, errors, notices: await failuresOf(run, matched.filter((m) => m.row.values.result !== '0')) };
}

async function finish(run: ImportRun): Promise<ImportError[]> {
  const state = stateOf(run);
  if (state.settledBefore.length > 0) {
    const at = state.settledBefore.filter(Boolean).sort()[0] ?? '';
    return [{ row: 0, column: '', message: `この振替結果は取込済みです（${at ? `${formatDateTime(at)} に取込、` : ''}${state.settledBefore.length} 件）。同じ結果を二度取り込むことはできません。` }];
  }
  if (!run.dryRun && state.requests.size > 0) {
    await run.trx.updateTable('jaccs_request').set({ jr_result_at: nowIso(), jr_result_job_id: run.actor.jobId ?? null })
      .where('jr_id', 'in', [...state.requests]).execute();
  }
  return [];
}

export const jaccsResultImport: ImportKindHandler = { records: resultRecords, apply, finish, noticeLink };
