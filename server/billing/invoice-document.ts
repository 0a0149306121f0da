/**
 * The invoice as a document (適格請求書, domain money-and-files §1 "Qualified invoice"): a plain typed
 * `InvoiceDocument` built from the database — the invoice (`billing`), its per-rate rows (`billing_rate`), the slips
 * the closing stamped with it (`sales.sl_bli_id`) and their lines (`sales_detail`), the payments it took
 * (`payment.py_bli_id`), the billing customer (recipient) and our company (自社情報, the issuer). The PDF
 * (invoice-pdf.ts) draws it and nothing else; `invoiceProblems` checks that the parts agree to the yen before an
 * invoice is issued (its header total is the table's total).
 *
 * Reads are batched: `invoiceDocuments(db, ids)` answers any number of invoices in seven queries, so the batch PDF
 * of a closing reads a chunk of invoices at a time.
 */
import type { Kysely } from 'kysely';
import { registrationNumberProblem } from '../../lib/billing/registration-number';
import { formatDateJa } from '../../lib/format';
import { bucketKey, rateLabel } from '../../lib/money/totals';
import { BANK_ACCOUNT_TYPE, COMPANY_SETTING_ID } from '../../lib/resources/company';
import { KEISHO } from '../../lib/resources/options';
import { PAYMENT_KIND } from '../../lib/resources/payment';
import { taxClassOf, type TaxClass } from '../../lib/tax';
import { chunksOf } from '../db/bulk-write';
import type { Database, ResourceRow } from '../db/schema';
import { badRequest } from '../http/api-error';
import { cellText as text } from '../../lib/resources/checks';

type Db = Kysely<Database>;
const num = (value: unknown): number => (value === null || value === undefined || value === '' ? 0 : Number(value));

/** Who issues the invoice: our company (自社情報). */
export interface InvoiceIssuer {
  name: string;
  zipcode: string;
  address: string;
  tel: string;
  fax: string;
  email: string;
  /** 登録番号, `T` + 13 digits. */
  registrationNumber: string;
  /** The transfer account as printed, e.g. 「みずほ銀行 本店 普通 1234567 カ）アクアタクハイ」; '' without one. */
  bankAccount: string;
  /** 請求書の備考. */
  note: string;
}

/** Whom the invoice is for: the billing customer (the top of its `parent_id` chain). */
export interface InvoiceRecipient {
  cl_id: number;
  /** 会社名, else 氏名. */
  name: string;
  /** 御中 for a company, 様 for a person, or the customer's own 敬称. */
  honorific: string;
  /** 部署 / the person to the attention of a company, '' when none. */
  attention: string;
  zipcode: string;
  /** 都道府県 市区町村 番地, and the building on a line of its own. */
  addressLines: string[];
}

/** One line of a slip. */
export interface InvoiceLine {
  name: string;
  quantity: number;
  /** Up to two decimals (86.40). */
  unitPrice: number;
  /** Whole yen: tax-exclusive for 外税 customers, tax-inclusive for 内税 ones. */
  amount: number;
  taxClass: TaxClass;
  rate: number;
  /** 軽減税率 (marked ※ on the invoice). */
  reduced: boolean;
}

/**
 * A slip the invoice bills, with its lines; `site` names the delivery site when it is not the recipient; `late`: dated
 * before the invoice's period (entered after the previous closing, issue 19), printed with its date and 「前回締め後計上」.
 */
export interface InvoiceSlip {
  sl_id: number;
  number: string;
  date: string;
  site: string;
  late: boolean;
  lines: InvoiceLine[];
}

/** One tax bucket of the invoice (a `billing_rate` row). */
export interface InvoiceRate {
  /** `10`, `8`, `exempt`, `outside`. */
  key: string;
  label: string;
  rate: number;
  net: number;
  tax: number;
  total: number;
}

export interface InvoicePayment {
  date: string;
  kind: string;
  amount: number;
  /** Dated before the invoice's period (a late entry, as a slip's `late`). */
  late: boolean;
}

export interface InvoiceDocument {
  bl_id: number;
  number: string;
  /** The closing that made it: 締日グループ and 締め年月 (YYYYMM). */
  simeGp: string;
  simeYm: string;
  /** The day the document is issued (Japan date). */
  issuedOn: string;
  closingDate: string;
  periodFrom: string;
  periodTo: string;
  dueDate: string;
  issuer: InvoiceIssuer;
  recipient: InvoiceRecipient;
  prevTotal: number;
  paid: number;
  carry: number;
  salesNet: number;
  tax: number;
  total: number;
  rates: InvoiceRate[];
  slips: InvoiceSlip[];
  payments: InvoicePayment[];
  /** The line amounts include tax (a 内税 customer). */
  taxIncluded: boolean;
  /** Times the invoice left before (bl_print_count). */
  printCount: number;
  /** The number of the cancelled invoice this one corrects (a 修正インボイス, marked 修正), else undefined. */
  corrects?: string;
}

/** 会社名 of the settings, with what an invoice needs of them checked. */
export interface CompanySettings {
  row: ResourceRow | undefined;
  /** 自社名 of mails: the settings' name, else COMPANY_NAME. */
  name: string;
}

/**
 * Our company's settings row (自社情報) and the name mails use.
 * @example (await companySettings(db, 'アクア宅配センター')).name // '株式会社アクア' once saved
 */
export async function companySettings(db: Db, fallbackName: string): Promise<CompanySettings> {
  const row = await db.selectFrom('company_setting').selectAll().where('cs_id', '=', COMPANY_SETTING_ID).executeTakeFirst();
  return { row, name: text(row?.cs_name).trim() || fallbackName };
}

/** The company settings message when what an invoice needs is missing (nothing is issued). */
export const companyMissingMessage = (missing: readonly string[]): string =>
  `請求書を発行するには、システム > 自社情報 に${missing.join('・')}を登録してください。`;

/**
 * The issuer of an invoice from the settings row; refuses (400) without a name, an address or a valid 登録番号 —
 * a qualified invoice names its issuer and registration number.
 * @example issuerOf({ cs_name: 'アクア', cs_address: '東京都…', cs_invoice_no: 'T1180301018771' }).registrationNumber // 'T1180301018771'
 */
export function issuerOf(row: ResourceRow | undefined): InvoiceIssuer {
  const cs = (name: string) => text(row?.[`cs_${name}`]).trim();
  const missing = [['name', '会社名'], ['address', '住所'], ['invoice_no', '登録番号']].filter(([name]) => !cs(name)).map(([, label]) => label);
  if (missing.length) throw badRequest(companyMissingMessage(missing));
  const problem = registrationNumberProblem(cs('invoice_no'));
  if (problem) throw badRequest(`${problem}（システム > 自社情報）`);
  const type = BANK_ACCOUNT_TYPE.find((o) => o.value === cs('bank_type'))?.text ?? '';
  const bankAccount = cs('bank_name') && cs('bank_account')
    ? [cs('bank_name'), cs('bank_branch'), type, cs('bank_account'), cs('bank_holder')].filter(Boolean).join(' ')
    : '';
  return {
    name: cs('name'), zipcode: cs('zipcode'), address: cs('address'), tel: cs('tel'), fax: cs('fax'), email: cs('email'),
    registrationNumber: cs('invoice_no'), bankAccount, note: text(row?.cs_invoice_note),
  };
}

/**
 * The recipient of a customer's invoices: its 請求先 block (`billing_*`) when one is entered, else its own name and
 * address; 会社名 御中 or 氏名 様 (the customer's 敬称 when set).
 * @example recipientOf({ cl_id: 3, cl_co_name: '山田商店', cl_pref: '北海道', cl_city: '札幌市' }).honorific // '御中'
 */
export function recipientOf(client: ResourceRow): InvoiceRecipient {
  const cl = (name: string) => text(client[`cl_${name}`]).trim();
  const billing = cl('billing_co_name') !== '' || cl('billing_name') !== '';
  const part = (name: string) => (billing ? cl(`billing_${name}`) : cl(name));
  const company = part('co_name');
  const person = part('name');
  const keisho = KEISHO.some((o) => o.value === cl('keisho')) ? cl('keisho') : '';
  const name = company || person;
  const attention = company ? [part('busyo'), person].filter(Boolean).join(' ') : '';
  const honorific = keisho || (company && !person ? '御中' : '様');
  const building = part('building');
  return {
    cl_id: num(client.cl_id),
    name,
    // A company to the attention of a person: 「株式会社ＡＢＣ」「総務部 山本 一郎 様」; of a department: 「… 総務部 御中」.
    honorific,
    attention,
    zipcode: part('zipcode'),
    addressLines: [`${part('pref')}${part('city')}${part('address')}`, building].filter(Boolean),
  };
}

/** A customer's name as a slip's site: 会社名, else 氏名. */
const siteName = (row: ResourceRow): string => text(row.cl_co_name) || text(row.cl_name);

export interface DocumentOptions {
  /** The issue date (Japan date). */
  today: string;
  /** Our company's name when the settings have none (mails only; an invoice refuses without one). */
  fallbackName?: string;
}

/**
 * The documents of the invoices, in the order of `ids` (missing or deleted ones are left out): seven queries
 * for a chunk of up to 500 invoices.
 * @example const [doc] = await invoiceDocuments(db, [12], { today: '2026-05-25' }); doc.total // 12,345
 */
export async function invoiceDocuments(db: Db, ids: readonly number[], options: DocumentOptions): Promise<InvoiceDocument[]> {
  const issuer = issuerOf((await companySettings(db, options.fallbackName ?? '')).row);
  const out: InvoiceDocument[] = [];
  for (const chunk of chunksOf([...ids], 500)) out.push(...(await documentsOf(db, chunk, issuer, options)));
  return out;
}

async function documentsOf(db: Db, ids: readonly number[], issuer: InvoiceIssuer, options: DocumentOptions): Promise<InvoiceDocument[]> {
  if (ids.length === 0) return [];
  const invoices = await db.selectFrom('billing').selectAll().where('bl_id', 'in', [...ids]).where('deleted', '=', 0).execute();
  if (invoices.length === 0) return [];
  const found = invoices.map((b) => num(b.bl_id));
  const [rates, slips, lines, payments] = await Promise.all([
    db.selectFrom('billing_rate').selectAll().where('blr_bl_id', 'in', found).orderBy('blr_bl_id').orderBy('blr_id').execute(),
    db.selectFrom('sales').select(['sl_id', 'sl_bli_id', 'sl_number', 'sl_date', 'sl_cl_id']).where('sl_bli_id', 'in', found).where('deleted', '=', 0)
      .orderBy('sl_date').orderBy('sl_number').orderBy('sl_id').execute(),
    db.selectFrom('sales_detail').innerJoin('sales', 'sales.sl_id', 'sales_detail.sld_sl_id')
      .select(['sld_sl_id', 'sld_name', 'sld_quantity', 'sld_price', 'sld_amount', 'sld_tax_class', 'sld_tax_rate'])
      .where('sales.sl_bli_id', 'in', found).where('sales.deleted', '=', 0).orderBy('sld_sl_id').orderBy('sld_sort').orderBy('sld_id').execute(),
    db.selectFrom('payment').select(['py_bli_id', 'py_date', 'py_kind', 'py_amount']).where('py_bli_id', 'in', found).where('deleted', '=', 0)
      .orderBy('py_date').orderBy('py_id').execute(),
  ]);
  const clientIds = [...new Set([...invoices.map((b) => num(b.bl_cl_id)), ...slips.map((s) => num(s.sl_cl_id))])];
  const clients = new Map((await db.selectFrom('client').selectAll().where('cl_id', 'in', clientIds).execute()).map((c) => [num(c.cl_id), c]));

  const group = <T extends ResourceRow>(rows: readonly T[], key: string) => {
    const map = new Map<number, T[]>();
    for (const row of rows) {
      const id = num(row[key]);
      const list = map.get(id);
      if (list) list.push(row);
      else map.set(id, [row]);
    }
    return map;
  };
  const ratesOf = group(rates, 'blr_bl_id');
  const slipsOf = group(slips, 'sl_bli_id');
  const linesOf = group(lines, 'sld_sl_id');
  const paymentsOf = group(payments, 'py_bli_id');
  const kindText = new Map(PAYMENT_KIND.map((o) => [o.value, o.text]));

  const byId = new Map(invoices.map((b) => [num(b.bl_id), b]));
  const docs: InvoiceDocument[] = [];
  for (const id of ids) {
    const b = byId.get(id);
    if (!b) continue;
    const customerId = num(b.bl_cl_id);
    const client = clients.get(customerId) ?? { cl_id: customerId, cl_co_name: text(b.bl_name), cl_zei_ten: '' };
    const zeiTen = text(client.cl_zei_ten);
    const printCount = num(b.bl_print_count);
    docs.push({
      bl_id: id,
      number: text(b.bl_number),
      simeGp: text(b.bl_sime_gp),
      simeYm: text(b.bl_sime_ym),
      issuedOn: options.today,
      closingDate: text(b.bl_closing_date),
      periodFrom: text(b.bl_period_from),
      periodTo: text(b.bl_period_to),
      dueDate: text(b.bl_due_date),
      issuer,
      recipient: recipientOf(client),
      prevTotal: num(b.bl_prev_total),
      paid: num(b.bl_paid),
      carry: num(b.bl_carry),
      salesNet: num(b.bl_sales_net),
      tax: num(b.bl_tax_total),
      total: num(b.bl_total),
      rates: (ratesOf.get(id) ?? []).map((r) => {
        const taxClass = taxClassOf(r.blr_tax_class);
        return { key: text(r.blr_key), label: rateLabel(taxClass, num(r.blr_rate)), rate: num(r.blr_rate), net: num(r.blr_net), tax: num(r.blr_tax), total: num(r.blr_total) };
      }),
      slips: (slipsOf.get(id) ?? []).map((s) => {
        const slipClient = num(s.sl_cl_id);
        const site = slipClient !== customerId && clients.get(slipClient) ? siteName(clients.get(slipClient)!) : '';
        return {
          sl_id: num(s.sl_id), number: text(s.sl_number), date: text(s.sl_date), site, late: text(s.sl_date) < text(b.bl_period_from),
          lines: (linesOf.get(num(s.sl_id)) ?? []).map((l) => {
            const taxClass = taxClassOf(l.sld_tax_class);
            return {
              name: text(l.sld_name), quantity: num(l.sld_quantity), unitPrice: num(l.sld_price), amount: num(l.sld_amount),
              taxClass, rate: num(l.sld_tax_rate), reduced: taxClass === 'reduced',
            };
          }),
        };
      }),
      payments: (paymentsOf.get(id) ?? []).map((p) => ({
        date: text(p.py_date), kind: kindText.get(text(p.py_kind)) ?? text(p.py_kind), amount: num(p.py_amount), late: text(p.py_date) < text(b.bl_period_from),
      })),
      taxIncluded: zeiTen === '4' || zeiTen === '5',
      printCount,
    });
  }
  return docs;
}

const yen = (n: number): string => `${n.toLocaleString('ja-JP')}円`;

/**
 * Where the parts of an invoice disagree (empty when they reconcile to the yen): 前回請求額 − 入金額 = 繰越額,
 * 繰越額 + 今回売上額 + 消費税 = 今回請求額, Σ per-rate 税抜 = 今回売上額 and Σ per-rate tax = 消費税, each rate's
 * lines summing to its 税抜 (外税) or 税込 (内税) amount, and the payments to 入金額.
 * @example invoiceProblems({ ...doc, carry: 1 }) // ['繰越額 1円 が 前回請求額 − 入金額 …']
 */
export function invoiceProblems(doc: InvoiceDocument): string[] {
  const problems: string[] = [];
  const sum = <T>(rows: readonly T[], pick: (row: T) => number) => rows.reduce((s, row) => s + pick(row), 0);
  if (doc.prevTotal - doc.paid !== doc.carry) problems.push(`繰越額 ${yen(doc.carry)} が 前回請求額 ${yen(doc.prevTotal)} − 入金額 ${yen(doc.paid)} と一致しません`);
  if (doc.carry + doc.salesNet + doc.tax !== doc.total) problems.push(`今回請求額 ${yen(doc.total)} が 繰越額 + 今回売上額 + 消費税 と一致しません`);
  if (sum(doc.rates, (r) => r.net) !== doc.salesNet) problems.push(`税率ごとの税抜額の合計 ${yen(sum(doc.rates, (r) => r.net))} が 今回売上額 ${yen(doc.salesNet)} と一致しません`);
  if (sum(doc.rates, (r) => r.tax) !== doc.tax) problems.push(`税率ごとの消費税の合計 ${yen(sum(doc.rates, (r) => r.tax))} が 消費税 ${yen(doc.tax)} と一致しません`);
  const lineSums = new Map<string, number>();
  for (const line of doc.slips.flatMap((s) => s.lines)) {
    const key = bucketKey(line.taxClass, line.rate);
    lineSums.set(key, (lineSums.get(key) ?? 0) + line.amount);
  }
  for (const [key, amount] of lineSums) {
    const rate = doc.rates.find((r) => r.key === key);
    if (!rate) {
      if (amount !== 0) problems.push(`明細に ${key === 'exempt' ? '非課税' : key === 'outside' ? '不課税' : `${key}%`} の金額 ${yen(amount)} がありますが、税率ごとの集計にありません`);
    } else if (amount !== rate.net && amount !== rate.total) {
      problems.push(`${rate.label}の明細の合計 ${yen(amount)} が 税抜 ${yen(rate.net)}・税込 ${yen(rate.total)} のどちらとも一致しません`);
    }
  }
  for (const rate of doc.rates) {
    if (!lineSums.has(rate.key) && (rate.net !== 0 || rate.tax !== 0)) problems.push(`${rate.label}の明細がありません`);
  }
  if (sum(doc.payments, (p) => p.amount) !== doc.paid) problems.push(`入金の合計 ${yen(sum(doc.payments, (p) => p.amount))} が 入金額 ${yen(doc.paid)} と一致しません`);
  return problems;
}

/**
 * Refuses (400) an invoice whose parts disagree, naming it and the first disagreement: a wrong invoice is never
 * printed or sent.
 */
export function assertReconciles(doc: InvoiceDocument): void {
  const problems = invoiceProblems(doc);
  if (problems.length) throw badRequest(`請求 ${doc.number} は金額が合わないため発行できません（${problems[0]}）。`);
}

/** The period as printed: 「2026年4月21日〜2026年5月20日」 (no weekdays). */
export const periodText = (doc: Pick<InvoiceDocument, 'periodFrom' | 'periodTo'>): string =>
  `${dayJa(doc.periodFrom)}〜${dayJa(doc.periodTo)}`;

/** A day without its weekday: 「2026年5月20日」. */
export const dayJa = (day: string): string => formatDateJa(day).replace(/（.）$/, '');
