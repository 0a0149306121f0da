/**
 * The direct-debit request file (口座振替依頼データ, 全銀 種別91) of a closing (issue 14, `jaccs_request`):
 * - who: the closing's invoices with a 残額 (`bl_open` > 0) whose billing customer pays by 口座振替 — its 回収方法
 *   (`cl_collect_type`), or its 支払方法 (`cl_pm_id`) when no 回収方法 is set, is a 支払方法 master row (`mt_pmt_method`)
 *   whose name holds 「口座振替」 (`debitMethods`; the master's フラグ already means 配達時に集金, so the name is what
 *   says 口座振替, as the demo and the shipped master name it);
 * - the amount: the invoice's 残額; 引落日: the 27th of the month after the closing month (JACCS debits on the 27th),
 *   else the next bank day (`bankDayFrom`);
 * - every customer checked BEFORE anything is made (`jaccsPlan`): bank, branch, 預金種目, account, holder kana (the
 *   Zengin character set), 顧客番号, and 自社情報's 委託者 data for the header; any problem refuses the file (400 naming
 *   each customer and what is wrong) and writes nothing;
 * - what is made is recorded (`jaccs_request` + a row per customer) and the closing stamped `cls_jaccs_at` (締め戻し is
 *   then refused), in one transaction; a second request of the closing is 409 naming the first unless `reissue=1`,
 *   which makes the file again marked 再発行 (in the table and the file name).
 */
import iconv from 'iconv-lite';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { JaccsPreview, JaccsRequestEntry, JaccsRequestRow } from '../../lib/jaccs/contract';
import { bankDayFrom, closingDateOf, closingLabel, shiftMonth } from '../../lib/closing/period';
import { formatDateTime, formatMoney } from '../../lib/format';
import { clientResource, debitAccountProblems } from '../../lib/resources/client';
import { COMPANY_SETTING_ID } from '../../lib/resources/company';
import { titleOf } from '../../lib/resources/types';
import {
  dataRecord, DEBIT_ACCOUNT_TYPES, endRecord, headerRecord, RECORD_LENGTH, toZenginKana, trailerOf, trailerRecord,
  zenginUnheld, type ZenginData, type ZenginHeader,
} from '../../lib/zengin/format';
import { writeAudit } from '../audit/audit-log';
import { CLOSING_LOCK } from '../closing';
import { chunksOf, insertMany } from '../db/bulk-write';
import { locking, serialize } from '../db/concurrency';
import type { Database, ResourceRow } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';

type Db = Kysely<Database> | Transaction<Database>;

const text = (value: unknown): string => (value === null || value === undefined ? '' : String(value));

/** The largest amount a data record holds (10 digits). */
const MAX_AMOUNT = 9_999_999_999;

/**
 * 引落日 of a closing month: the 27th of the next month, or the next bank day.
 * @example debitDateOf('202504') // '2025-05-27'
 */
export function debitDateOf(ym: string): string {
  const next = shiftMonth(ym, 1);
  return bankDayFrom(`${next.slice(0, 4)}-${next.slice(4, 6)}-27`);
}

/**
 * The 支払方法 master codes that mean 口座振替 (its name holds 「口座振替」).
 * @example await debitMethods(db) // ['1']
 */
export async function debitMethods(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('master_option').select(['mo_value', 'mo_text']).where('mo_table', '=', 'mt_pmt_method').where('deleted', '=', 0).execute();
  return rows.filter((r) => text(r.mo_text).normalize('NFKC').includes('口座振替')).map((r) => text(r.mo_value));
}

/** The problems of one customer's debit data (each names the field), given its invoice's 残額. */
export function customerProblems(client: ResourceRow, amount: number): string[] {
  const problems: string[] = [];
  const value = (name: string) => text(client[`cl_${name}`]).trim();
  const formed = debitAccountProblems(Object.fromEntries(['bank_code', 'branch_code', 'account_no', 'debit_code'].map((n) => [n, value(n)])));
  for (const [name, label] of [['bank_code', '銀行コード'], ['branch_code', '支店コード'], ['account_type', '預金種目'], ['account_no', '口座番号'], ['account_kana', '口座名義カナ'], ['debit_code', '顧客番号']] as const) {
    if (value(name) === '') problems.push(`${label}がありません`);
    else if (formed[name]) problems.push(formed[name].replace(/。$/, ''));
  }
  const type = value('account_type');
  if (type !== '' && !DEBIT_ACCOUNT_TYPES.some((o) => o.value === type)) problems.push(`預金種目「${type}」は 1 普通・2 当座・9 その他のいずれかにしてください`);
  const kana = toZenginKana(value('account_kana'));
  const unheld = zenginUnheld(kana);
  if (unheld.length > 0) problems.push(`口座名義カナに全銀フォーマットで使えない文字があります（${unheld.join('')}）`);
  else if (kana.length > 30) problems.push('口座名義カナが 30 文字（半角）を超えています');
  if (amount > MAX_AMOUNT) problems.push(`引落金額 ${formatMoney(amount)} が全銀フォーマットの上限（10 桁）を超えています`);
  return problems;
}

/** The header's 委託者 data from 自社情報, and its problems (each naming the field and where to enter it). */
export function companyHeader(row: ResourceRow | undefined, debitDate: string): { header: ZenginHeader; problems: string[] } {
  const value = (name: string) => text(row?.[`cs_${name}`]).trim();
  const kana = (name: string) => toZenginKana(value(name));
  const header: ZenginHeader = {
    itakuCode: value('itaku_code'), itakuName: kana('itaku_name'), debitDate,
    bankCode: value('itaku_bank_code'), bankName: kana('itaku_bank_kana'), branchCode: value('itaku_branch_code'), branchName: kana('itaku_branch_kana'),
    accountType: value('itaku_account_type'), accountNo: value('itaku_account_no'),
  };
  const problems: string[] = [];
  const need = (ok: boolean, message: string) => {
    if (!ok) problems.push(`自社情報（システム > 自社情報 > 口座振替）: ${message}`);
  };
  need(/^\d{10}$/.test(header.itakuCode), '委託者コード（10 桁の数字）を登録してください');
  need(header.itakuName !== '', '委託者名（カナ）を登録してください');
  need(/^\d{4}$/.test(header.bankCode), '取引銀行コード（4 桁の数字）を登録してください');
  need(/^\d{3}$/.test(header.branchCode), '取引支店コード（3 桁の数字）を登録してください');
  need(header.accountType === '' || /^\d$/.test(header.accountType), '取引口座の預金種目が正しくありません');
  need(header.accountNo === '' || /^\d{7}$/.test(header.accountNo), '取引口座の口座番号は 7 桁の数字で登録してください');
  for (const [name, label] of [['itakuName', '委託者名'], ['bankName', '取引銀行名'], ['branchName', '取引支店名']] as const) {
    const unheld = zenginUnheld(header[name]);
    need(unheld.length === 0, `${label}に全銀フォーマットで使えない文字があります（${unheld.join('')}）`);
  }
  return { header, problems };
}

/** The closing of a group and month, or 400 when it was not closed. */
async function closingRow(db: Db, simeGp: string, simeYm: string, lock: boolean): Promise<ResourceRow> {
  const query = db.selectFrom('closing').selectAll().where('cls_sime_gp', '=', simeGp).where('cls_sime_ym', '=', simeYm);
  const row = await (lock ? locking(db, query, 'update') : query).executeTakeFirst();
  if (!row) throw badRequest(`${closingLabel(simeGp, simeYm)}は締め処理されていません。先に締め処理をしてください。`);
  return row;
}

/** The requests made from a closing, newest first. */
export async function requestsOf(db: Db, clsId: number): Promise<JaccsRequestEntry[]> {
  const rows = await db.selectFrom('jaccs_request').leftJoin('user', 'user.user_id', 'jaccs_request.jr_usr_id')
    .select(['jr_id', 'jaccs_request.created', 'jr_reissue', 'jr_debit_date', 'jr_count', 'jr_total', 'jr_file_name', 'jr_result_at', 'user_name'])
    .where('jr_cls_id', '=', clsId).orderBy('jr_id', 'desc').execute();
  return rows.map((r) => ({
    jr_id: Number(r.jr_id), created: text(r.created), reissue: Number(r.jr_reissue) === 1, debit_date: text(r.jr_debit_date), count: Number(r.jr_count),
    total: Number(r.jr_total), file_name: text(r.jr_file_name), user_name: text(r.user_name), result_at: text(r.jr_result_at),
  }));
}

interface Plan {
  preview: JaccsPreview;
  header: ZenginHeader;
  clients: Map<number, ResourceRow>;
}

/**
 * The request of a closing, checked: the customers debited with their invoices' 残額 and every problem; nothing written.
 * @example (await jaccsPlan(db, '20', '202504')).preview.rows // [{ cl_id: 3, amount: 5400, problems: [], … }]
 */
export async function jaccsPlan(db: Db, simeGp: string, simeYm: string, lock = false): Promise<Plan> {
  const closing = await closingRow(db, simeGp, simeYm, lock);
  const clsId = Number(closing.cls_id);
  const methods = await debitMethods(db);
  const debitDate = debitDateOf(simeYm);
  const invoices = methods.length === 0 ? [] : await db.selectFrom('billing').innerJoin('client', 'client.cl_id', 'billing.bl_cl_id')
    .select(['bl_id', 'bl_number', 'bl_open', 'client.cl_id', 'cl_co_name', 'cl_name', 'cl_bank_code', 'cl_branch_code', 'cl_account_type', 'cl_account_no',
      'cl_account_kana', 'cl_debit_code'])
    .where('bl_cls_id', '=', clsId).where('billing.deleted', '=', 0).where('bl_open', '>', 0)
    .where((eb) => eb.or([eb('cl_collect_type', 'in', methods), eb.and([eb(sql`coalesce(cl_collect_type, '')`, '=', ''), eb('cl_pm_id', 'in', methods)])]))
    .orderBy('cl_debit_code').orderBy('bl_id').execute();
  const clients = new Map<number, ResourceRow>();
  const rows = invoices.map((r): JaccsRequestRow => {
    clients.set(Number(r.cl_id), r);
    const amount = Number(r.bl_open);
    return {
      bl_id: Number(r.bl_id), bl_number: text(r.bl_number), cl_id: Number(r.cl_id), name: titleOf(clientResource, r), debit_code: text(r.cl_debit_code),
      bank_code: text(r.cl_bank_code), branch_code: text(r.cl_branch_code), account_type: text(r.cl_account_type), account_no: text(r.cl_account_no),
      account_kana: toZenginKana(text(r.cl_account_kana)), amount, problems: customerProblems(r, amount),
    };
  });
  const company = await db.selectFrom('company_setting').selectAll().where('cs_id', '=', COMPANY_SETTING_ID).executeTakeFirst();
  const { header, problems } = companyHeader(company, debitDate);
  const preview: JaccsPreview = {
    cls_id: clsId, sime_gp: simeGp, sime_ym: simeYm, closing_date: text(closing.cls_closing_date) || closingDateOf(simeGp, simeYm), debit_date: debitDate,
    rows, count: rows.length, total: rows.reduce((s, r) => s + r.amount, 0), company_problems: problems,
    problem_rows: rows.filter((r) => r.problems.length > 0).length, requests: await requestsOf(db, clsId),
  };
  return { preview, header, clients };
}

/** The file's text: header, a data record per row, trailer, end — each 120 characters, no line breaks (a request). */
export function requestText(header: ZenginHeader, rows: readonly JaccsRequestRow[], newCodes: ReadonlyMap<number, string>): string {
  const data = rows.map((r): ZenginData => ({
    bankCode: r.bank_code, bankName: '', branchCode: r.branch_code, branchName: '', accountType: r.account_type, accountNo: r.account_no,
    holder: r.account_kana, amount: r.amount, newCode: newCodes.get(r.cl_id) ?? '0', customerNo: r.debit_code, result: '0',
  }));
  const records = [headerRecord(header), ...data.map(dataRecord), trailerRecord({ ...trailerOf(data), doneCount: 0, doneTotal: 0, failedCount: 0, failedTotal: 0 }), endRecord()];
  for (const record of records) if (record.length !== RECORD_LENGTH) throw new Error(`Zengin record of ${record.length}: ${record}`);
  return records.join('');
}

/** cp932 bytes of Zengin text: every character is one byte (checked). */
export function zenginBytes(content: string): Buffer {
  const bytes = iconv.encode(content, 'cp932');
  if (bytes.length !== content.length) throw new Error('Zengin text holds a character that is not one byte in cp932');
  return bytes;
}

/** The file's name: 口座振替依頼_{closing}_引落{MMDD}(_再発行{n}).txt. */
export const requestFileName = (simeGp: string, simeYm: string, debitDate: string, reissue: number): string =>
  `口座振替依頼_${simeYm}_${simeGp}日締め_引落${debitDate.slice(5, 7)}${debitDate.slice(8, 10)}${reissue > 0 ? `_再発行${reissue}` : ''}.txt`;

/** A 400 listing each customer (and 自社情報) with what is wrong: the file is not made. */
function problemsRefusal(plan: JaccsPreview): ApiError {
  const named = plan.rows.filter((r) => r.problems.length > 0).map((r) => `${r.name}（顧客ID ${r.cl_id}）: ${r.problems.join('、')}`);
  const lines = [...plan.company_problems, ...named];
  const shown = lines.slice(0, 20).join('\n') + (lines.length > 20 ? `\nほか ${lines.length - 20} 件` : '');
  return badRequest(`口座振替依頼データを作成できません（${lines.length} 件の問題）。\n${shown}`, {
    problems: plan.rows.filter((r) => r.problems.length > 0).map((r) => ({ cl_id: r.cl_id, name: r.name, problems: r.problems })),
    company_problems: plan.company_problems,
  });
}

export interface RequestMade {
  jr_id: number;
  reissue: number;
  fileName: string;
  bytes: Buffer;
  count: number;
  total: number;
}

/**
 * Makes the request file of a closing and records it, in one transaction (nothing written on any refusal).
 * @example await makeRequest(db, { userId: 1, call: 'jaccs_request' }, '20', '202504', false)
 */
export async function makeRequest(db: Kysely<Database>, actor: { userId: number; call: string }, simeGp: string, simeYm: string, reissue: boolean): Promise<RequestMade> {
  return db.transaction().execute(async (trx) => {
    // A restore takes the closing lock exclusively: it cannot pass its check while a request is being made.
    await serialize(trx, CLOSING_LOCK, 'shared');
    const { preview, header } = await jaccsPlan(trx, simeGp, simeYm, true);
    const before = preview.requests;
    if (before.length > 0 && !reissue) {
      const first = before[before.length - 1];
      throw new ApiError(409, `${closingLabel(simeGp, simeYm)}の口座振替依頼データは作成済みです（${formatDateTime(first.created)} ${first.user_name}、${first.count}件 ${formatMoney(first.total)}、${first.file_name}）。作り直すときは再発行してください。`);
    }
    const settled = before.find((r) => r.result_at !== '');
    if (settled) throw new ApiError(409, `この依頼データの振替結果は取込済み（${formatDateTime(settled.result_at)}）のため、再発行できません。`);
    if (preview.rows.length === 0) throw badRequest(`${closingLabel(simeGp, simeYm)}に口座振替で引き落とす請求（残額のある口座振替の顧客）がありません。`);
    if (preview.problem_rows > 0 || preview.company_problems.length > 0) throw problemsRefusal(preview);

    // 新規コード 1 (第1回) for a customer never requested from another closing, else 0.
    const clientIds = [...new Set(preview.rows.map((r) => r.cl_id))];
    const seen = new Set<number>();
    for (const chunk of chunksOf(clientIds, 1000)) {
      const rows = await trx.selectFrom('jaccs_request_row').select('jrr_cl_id').distinct().where('jrr_cl_id', 'in', chunk).where('jrr_cls_id', '<>', preview.cls_id).execute();
      for (const r of rows) seen.add(Number(r.jrr_cl_id));
    }
    const newCodes = new Map(clientIds.map((id) => [id, seen.has(id) ? '0' : '1']));
    const bytes = zenginBytes(requestText(header, preview.rows, newCodes));

    const stamp = new Date().toISOString();
    const reissueNo = before.length;
    const fileName = requestFileName(simeGp, simeYm, preview.debit_date, reissueNo);
    const [made] = await insertMany(trx, 'jaccs_request', [{
      jr_cls_id: preview.cls_id, jr_sime_gp: simeGp, jr_sime_ym: simeYm, jr_debit_date: preview.debit_date, jr_reissue: reissueNo > 0 ? 1 : 0,
      jr_count: preview.count, jr_total: preview.total, jr_file_name: fileName, jr_usr_id: actor.userId, jr_result_at: '', created: stamp,
    }], ['jr_id']);
    const jrId = Number(made.jr_id);
    await insertMany(trx, 'jaccs_request_row', preview.rows.map((r): ResourceRow => ({
      jrr_jr_id: jrId, jrr_cls_id: preview.cls_id, jrr_cl_id: r.cl_id, jrr_bl_id: r.bl_id, jrr_debit_code: r.debit_code, jrr_amount: r.amount, jrr_result: '',
    })));
    await trx.updateTable('closing').set({ cls_jaccs_at: stamp }).where('cls_id', '=', preview.cls_id).where('cls_jaccs_at', '=', '').execute();
    await writeAudit(trx, {
      userId: actor.userId, call: actor.call, table: 'jaccs_request', recordId: jrId, at: stamp,
      changes: { jr_cls_id: [null, preview.cls_id], jr_count: [null, preview.count], jr_total: [null, preview.total], jr_reissue: [null, reissueNo > 0 ? 1 : 0], jr_file_name: [null, fileName] },
    });
    return { jr_id: jrId, reissue: reissueNo, fileName, bytes, count: preview.count, total: preview.total };
  });
}
