/**
 * `export_yayoi`: the 弥生会計 journal of a period (lib/accounting/yayoi.ts makes its records) as a cp932 CR LF file without a
 * header, in ONE transaction under the closing lock: the period's live slips (their `sales_rate` buckets) and payments read, the
 * export marked in `accounting_export` (a period overlapping an earlier export needs `reexport` and is marked 再出力; without it
 * 409 naming the earlier export), the closings whose period overlaps the export stamped `cls_export_at` (so `closing_restore`
 * refuses them) and one audit row. Nothing is written when any step refuses.
 *
 * Late entries (issue 19): a slip or payment entered after the export of its date's period goes into the next export,
 * whatever its date. Each remembers the export that first wrote it (`sl_ae_id`, `py_ae_id`, migration 0055), so an export
 * of from..to takes the live slips and payments dated up to `to` and not exported before — from `from`, or, once there
 * have been exports, from the first export's first day (what came before the office exported through us is not
 * Yayoi's) — and a 再出力 also those the exports it repeats wrote. Those dated before `from` are named: counted in
 * `ae_late` and the header `X-Yayoi-Late`, and their 仕訳メモ says so.
 */
import type { Kysely, Transaction } from 'kysely';
import { YAYOI_LATE_HEADER, yayoiRecords, type AccountingExportRow, type YayoiPayment, type YayoiSlipRate } from '../../lib/accounting/yayoi';
import { formatDateTime } from '../../lib/format';
import { CSV_HEADERS } from '../../lib/protocol';
import { clientResource } from '../../lib/resources/client';
import { YAYOI_DEFAULTS, YAYOI_SETTING_ID, type YayoiSetting } from '../../lib/resources/yayoi-setting';
import { writeAudit } from '../audit/audit-log';
import type { FileAnswer } from '../calls/call-table';
import { CLOSING_LOCK } from '../closing';
import { chunksOf } from '../db/bulk-write';
import { serialize } from '../db/concurrency';
import type { Database } from '../db/schema';
import { ApiError } from '../http/api-error';
import { nextStamp } from '../http/clock';
import { titleSql, csvRecords, encodeCsv } from '../resources';

/** `accounting_export.ae_kind` of the Yayoi journal. */
export const YAYOI_KIND = 'yayoi';

type Db = Kysely<Database> | Transaction<Database>;

/** The settings record (the defaults where a value is blank). */
export async function yayoiSetting(db: Db): Promise<YayoiSetting> {
  const row = await db.selectFrom('yayoi_setting').selectAll().where('ys_id', '=', YAYOI_SETTING_ID).executeTakeFirst();
  const setting = { ...YAYOI_DEFAULTS } as YayoiSetting;
  for (const name of Object.keys(YAYOI_DEFAULTS) as (keyof YayoiSetting)[]) {
    const value = String(row?.[`ys_${name}`] ?? '').trim();
    if (value) setting[name] = value;
  }
  return setting;
}

/** The exports of a kind, newest first (at most `limit`), with who made them. */
export async function accountingExports(db: Db, kind: string, limit = 50): Promise<AccountingExportRow[]> {
  const rows = await db.selectFrom('accounting_export').leftJoin('user', 'user.user_id', 'accounting_export.ae_usr_id')
    .select(['ae_id', 'ae_kind', 'ae_from', 'ae_to', 'ae_rows', 'ae_slips', 'ae_payments', 'ae_reexport', 'ae_late', 'accounting_export.created', 'user_name'])
    .where('ae_kind', '=', kind).orderBy('ae_id', 'desc').limit(limit).execute();
  return rows.map((r) => ({
    ae_id: Number(r.ae_id), ae_kind: String(r.ae_kind), ae_from: String(r.ae_from), ae_to: String(r.ae_to), ae_rows: Number(r.ae_rows),
    ae_slips: Number(r.ae_slips), ae_payments: Number(r.ae_payments), ae_reexport: Number(r.ae_reexport), ae_late: Number(r.ae_late ?? 0), created: String(r.created),
    user_name: String(r.user_name ?? ''),
  }));
}

/** Which slips and payments an export takes: dated `since`..`to`, not written by an export other than those it repeats. */
interface JournalScope {
  from: string;
  to: string;
  /** `from`, or the first export's first day when earlier (late entries). */
  since: string;
  /** The earlier exports this one repeats (a 再出力 of their period). */
  repeats: number[];
}

/** One read of an export's rows: dated from `lo` up to `hi` (itself included or not), never exported and/or written by the repeated exports. */
interface Span {
  lo: string;
  hi: string;
  withHi: boolean;
  marks: 'unexported' | 'repeated' | 'both';
}

/**
 * The reads an export makes, each one an index serves: the period by date (unexported or repeated); the late entries
 * never exported by the partial index of the unexported (migration 0055); for a 再出力, the late entries its repeated
 * exports wrote.
 */
function spansOf({ from, to, since, repeats }: JournalScope): Span[] {
  const spans: Span[] = [{ lo: from, hi: to, withHi: true, marks: repeats.length ? 'both' : 'unexported' }];
  if (since < from) spans.push({ lo: since, hi: from, withHi: false, marks: 'unexported' });
  if (since < from && repeats.length) spans.push({ lo: since, hi: from, withHi: false, marks: 'repeated' });
  return spans;
}

/**
 * The slips by tax bucket and the payments an export takes, live only, with the customer's name and 弥生取引先コード;
 * those dated before the period are marked `late` (yayoiRecords orders the journal).
 */
async function journalData(trx: Db, scope: JournalScope): Promise<{ rates: YayoiSlipRate[]; payments: YayoiPayment[]; slips: number }> {
  const { from, repeats } = scope;
  const name = titleSql(clientResource, 'client').as('client_name');
  const rates: YayoiSlipRate[] = [];
  const payments: YayoiPayment[] = [];
  for (const span of spansOf(scope)) {
    const rateRows = await trx.selectFrom('sales_rate').innerJoin('sales', 'sales.sl_id', 'sales_rate.slr_sl_id').innerJoin('client', 'client.cl_id', 'sales.sl_cl_id')
      .select(['sl_id', 'sl_number', 'sl_date', 'cl_yayoi_id', 'slr_key', 'slr_total', 'slr_tax', name])
      .where('sales.deleted', '=', 0).where('sl_date', '>=', span.lo)
      .where('sl_date', span.withHi ? '<=' : '<', span.hi)
      .where((eb) => (span.marks === 'unexported' ? eb('sl_ae_id', 'is', null) : span.marks === 'repeated' ? eb('sl_ae_id', 'in', repeats)
        : eb.or([eb('sl_ae_id', 'is', null), eb('sl_ae_id', 'in', repeats)])))
      .execute();
    const paymentRows = await trx.selectFrom('payment').innerJoin('client', 'client.cl_id', 'payment.py_cl_id')
      .select(['py_id', 'py_date', 'py_kind', 'py_amount', 'cl_yayoi_id', name])
      .where('payment.deleted', '=', 0).where('py_date', '>=', span.lo)
      .where('py_date', span.withHi ? '<=' : '<', span.hi)
      .where((eb) => (span.marks === 'unexported' ? eb('py_ae_id', 'is', null) : span.marks === 'repeated' ? eb('py_ae_id', 'in', repeats)
        : eb.or([eb('py_ae_id', 'is', null), eb('py_ae_id', 'in', repeats)])))
      .execute();
    for (const r of rateRows) {
      rates.push({
        sl_id: Number(r.sl_id), number: String(r.sl_number ?? ''), date: String(r.sl_date), client: String(r.client_name ?? ''),
        yayoi_id: String(r.cl_yayoi_id ?? ''), key: String(r.slr_key), total: Number(r.slr_total), tax: Number(r.slr_tax), late: String(r.sl_date) < from,
      });
    }
    for (const r of paymentRows) {
      payments.push({
        py_id: Number(r.py_id), date: String(r.py_date), client: String(r.client_name ?? ''), yayoi_id: String(r.cl_yayoi_id ?? ''),
        kind: String(r.py_kind), amount: Number(r.py_amount), late: String(r.py_date) < from,
      });
    }
  }
  return { rates, payments, slips: new Set(rates.map((r) => r.sl_id)).size };
}

/** Marks the slips and payments an export wrote first (those written before keep their first export). */
async function markExported(trx: Db, exportId: number, slipIds: readonly number[], paymentIds: readonly number[]): Promise<void> {
  for (const chunk of chunksOf([...slipIds], 1000)) {
    await trx.updateTable('sales').set({ sl_ae_id: exportId }).where('sl_id', 'in', chunk).where('sl_ae_id', 'is', null).execute();
  }
  for (const chunk of chunksOf([...paymentIds], 1000)) {
    await trx.updateTable('payment').set({ py_ae_id: exportId }).where('py_id', 'in', chunk).where('py_ae_id', 'is', null).execute();
  }
}

/**
 * The closings whose period overlaps from..to: a group's closing covers the day after its previous closing date up to its own
 * closing date (its first closing, everything before). Once exported, restoring one would let its slips change under the
 * journal Yayoi holds.
 */
async function overlappingClosings(trx: Db, from: string, to: string): Promise<number[]> {
  const rows = await trx.selectFrom('closing').select(['cls_id', 'cls_sime_gp', 'cls_closing_date']).orderBy('cls_sime_gp').orderBy('cls_closing_date').execute();
  const ids: number[] = [];
  let group = '';
  let previous = '';
  for (const row of rows) {
    if (String(row.cls_sime_gp) !== group) {
      group = String(row.cls_sime_gp);
      previous = '';
    }
    const closingDate = String(row.cls_closing_date);
    if (closingDate >= from && previous < to) ids.push(Number(row.cls_id));
    previous = closingDate;
  }
  return ids;
}

const periodLabel = (from: string, to: string): string => `${from}〜${to}`;

/**
 * The journal of from..to as a file, marked, stamped and audited in one transaction.
 * @example await exportYayoi(db, { userId: 1, call: 'export_yayoi' }, '2026-05-01', '2026-05-31', false)
 */
export async function exportYayoi(db: Kysely<Database>, ctx: { userId: number; call: string }, from: string, to: string, reexport: boolean): Promise<FileAnswer> {
  const { bytes, rows, reexported, late } = await db.transaction().execute(async (trx) => {
    // One export (or closing restore) at a time: the overlap check and the stamps see what the one before committed.
    await serialize(trx, CLOSING_LOCK);
    const overlapping = await trx.selectFrom('accounting_export').leftJoin('user', 'user.user_id', 'accounting_export.ae_usr_id')
      .select(['ae_id', 'ae_from', 'ae_to', 'accounting_export.created', 'user_name'])
      .where('ae_kind', '=', YAYOI_KIND).where('ae_from', '<=', to).where('ae_to', '>=', from)
      .orderBy('ae_id', 'desc').execute();
    const earlier = overlapping[0];
    if (earlier && !reexport) {
      const message = `${periodLabel(String(earlier.ae_from), String(earlier.ae_to))} の仕訳は ${formatDateTime(String(earlier.created))} に${earlier.user_name ? `${String(earlier.user_name)}さんが` : ''}出力済みです（出力番号 ${String(earlier.ae_id)}）。同じ期間をもう一度出力するときは「再出力」を選んでください（弥生会計で二重に取り込まないようご注意ください）。`;
      throw new ApiError(409, message, { ae_id: Number(earlier.ae_id) });
    }
    const setting = await yayoiSetting(trx);
    const first = await trx.selectFrom('accounting_export').select((eb) => eb.fn.min('ae_from').as('since')).where('ae_kind', '=', YAYOI_KIND).executeTakeFirst();
    const firstDay = first?.since ? String(first.since) : from;
    const { rates, payments, slips } = await journalData(trx, { from, to, since: firstDay < from ? firstDay : from, repeats: overlapping.map((e) => Number(e.ae_id)) });
    const written = payments.filter((p) => p.amount !== 0);
    const late = new Set(rates.filter((r) => r.late).map((r) => r.sl_id)).size + written.filter((p) => p.late).length;
    const records = yayoiRecords(rates, payments, setting);
    const stamp = nextStamp();
    const marked = await trx.insertInto('accounting_export').values({
      ae_kind: YAYOI_KIND, ae_from: from, ae_to: to, ae_usr_id: ctx.userId, ae_rows: records.length, ae_slips: slips,
      ae_payments: written.length, ae_reexport: earlier ? 1 : 0, ae_late: late, created: stamp,
    }).returning('ae_id').executeTakeFirstOrThrow();
    await markExported(trx, Number(marked.ae_id), [...new Set(rates.map((r) => r.sl_id))], payments.map((p) => p.py_id));
    const closings = await overlappingClosings(trx, from, to);
    if (closings.length) await trx.updateTable('closing').set({ cls_export_at: stamp }).where('cls_id', 'in', closings).execute();
    await writeAudit(trx, {
      userId: ctx.userId, call: ctx.call, table: 'accounting_export', recordId: Number(marked.ae_id), at: stamp,
      changes: {
        ae_from: [null, from], ae_to: [null, to], ae_rows: [null, records.length], ae_slips: [null, slips],
        ae_payments: [null, payments.length], ae_reexport: [null, earlier ? 1 : 0], ae_late: [null, late], closings: [null, closings.length],
      },
    });
    return { bytes: encodeCsv(csvRecords(records), 'cp932').bytes, rows: records.length, reexported: Boolean(earlier), late };
  });
  const span = `${from.replaceAll('-', '')}-${to.replaceAll('-', '')}`;
  return {
    file: {
      name: `弥生仕訳_${span}${reexported ? '_再出力' : ''}.csv`,
      asciiName: `yayoi_${span}${reexported ? '_reexport' : ''}.csv`,
      contentType: 'text/csv; charset=Shift_JIS',
      body: bytes,
      headers: { [CSV_HEADERS.rows]: String(rows), [YAYOI_LATE_HEADER]: String(late) },
    },
  };
}

