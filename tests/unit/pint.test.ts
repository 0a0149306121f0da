/**
 * The digital invoice (JP PINT 1.1.3, server/billing/pint.ts) checked by OpenPeppol's own two rule sets
 * (tests/support/pint-validate.ts): the harness passes the nine official examples and catches a broken one; our XML
 * passes for each kind of invoice we issue, its tax breakdown is our per-rate figures and its amount due our 今回請求額.
 *
 * The first run on a machine compiles the rule sets (about 20 s); later runs read them from os.tmpdir().
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { invoiceProblems, type InvoiceDocument, type InvoiceLine, type InvoiceRate, type InvoiceSlip } from '@/server/billing/invoice-document';
import { decimalText, pintInvoiceXml, priceOf, xmlText, type PeppolEndpoint } from '@/server/billing/pint';
import { PINT_EXAMPLES, preparePint, validatePint, type PintFailure } from '../support/pint-validate';

const BUYER: PeppolEndpoint = { scheme: '0188', id: '7000012050002' };

// ── Documents ────────────────────────────────────────────────────────────────────────────────────────────────────

const line = (name: string, quantity: number, unitPrice: number, amount: number, taxClass: InvoiceLine['taxClass'] = 'standard'): InvoiceLine => ({
  name, quantity, unitPrice, amount, taxClass,
  rate: taxClass === 'standard' ? 10 : taxClass === 'reduced' ? 8 : 0, reduced: taxClass === 'reduced',
});

let slipNo = 0;
const slip = (date: string, lines: InvoiceLine[], extra: Partial<InvoiceSlip> = {}): InvoiceSlip => {
  slipNo += 1;
  return { sl_id: slipNo, number: `S-${1000 + slipNo}`, date, site: '', late: false, lines, ...extra };
};

const rate = (key: string, net: number, tax: number): InvoiceRate => ({
  key, rate: Number(key) || 0, net, tax, total: net + tax,
  label: key === 'exempt' ? '非課税' : key === 'outside' ? '不課税' : key === '8' ? '8%対象（軽減税率）' : `${key}%対象`,
});

/** An invoice of the period 2026-04-21 … 2026-05-20 with the given slips and rates; carry and totals derived. */
function invoice(parts: { slips: InvoiceSlip[]; rates: InvoiceRate[]; prevTotal?: number; paid?: number } & Partial<InvoiceDocument>): InvoiceDocument {
  const { prevTotal = 0, paid = 0 } = parts;
  const salesNet = parts.rates.reduce((s, r) => s + r.net, 0);
  const tax = parts.rates.reduce((s, r) => s + r.tax, 0);
  const carry = prevTotal - paid;
  return {
    bl_id: 1, number: 'B-2026-0105', simeGp: '20', simeYm: '202605', issuedOn: '2026-05-25', closingDate: '2026-05-20', periodFrom: '2026-04-21', periodTo: '2026-05-20',
    dueDate: '2026-06-30',
    issuer: {
      name: '株式会社アクア宅配', zipcode: '100-0001', address: '東京都千代田区千代田1-1', tel: '03-1234-5678', fax: '', email: 'billing@aqua.example.jp',
      registrationNumber: 'T1180301018771', bankAccount: 'みずほ銀行 本店 普通 1234567 カ）アクアタクハイ', note: 'いつもご利用ありがとうございます。',
    },
    recipient: {
      cl_id: 3, name: '山田商店 & Co. <本店>', honorific: '御中', attention: '総務部 山本 一郎', zipcode: '060-0001',
      addressLines: ['北海道札幌市中央区北1条西1-1', 'ＡＢＣビル 3F'],
    },
    payments: [], taxIncluded: false, printCount: 0,
    ...parts, prevTotal, paid, carry, salesNet, tax, total: carry + salesNet + tax,
  };
}

/** 10 % and 8 % together, 外税: a unit price of two decimals, a slip entered after the previous closing, a site. */
const standardAndReduced = invoice({
  slips: [
    slip('2026-04-18', [line('ウォーター12L（前月分）', 1, 1200, 1200)], { late: true }),
    slip('2026-05-03', [line('ウォーター12L', 2, 1200, 2400), line('天然水 2L ※', 3, 86.45, 259, 'reduced')], { site: '山田商店 駅前店' }),
    slip('2026-05-17', [line('サーバーレンタル', 1, 1000, 1000), line('天然水 500ml ※', 5, 500, 2500, 'reduced')]),
  ],
  // 10 %: 4,600 → 460. 8 %: 2,759 × 8 % = 220.72 → 220 (切り捨て).
  rates: [rate('10', 4600, 460), rate('8', 2759, 220)],
});

/**
 * 内税 (taxIncluded): the NTA method, tax out of the tax-inclusive total per rate — 6,560 円 at 8 % → tax 485
 * (6,560 × 8 / 108 = 485.9, 切り捨て), 税抜 6,075; 3,300 円 at 10 % → tax 300, 税抜 3,000.
 */
const taxIncluded = invoice({
  taxIncluded: true,
  slips: [
    slip('2026-04-25', [line('天然水 2L ※', 2, 1620, 3240, 'reduced'), line('サーバーレンタル', 1, 3300, 3300)]),
    slip('2026-05-09', [line('天然水 2L ※', 2, 1660, 3320, 'reduced')]),
  ],
  rates: [rate('10', 3000, 300), rate('8', 6075, 485)],
});

/** 内税 whose per-rate tax is also the taxable amount × rate: 1,080 円 at 8 % → 80, 3,333 円 at 10 % → 303. */
const taxIncludedExact = invoice({
  taxIncluded: true,
  slips: [slip('2026-05-01', [line('天然水 ※', 3, 360, 1080, 'reduced'), line('レンタル', 3, 1111, 3333)])],
  rates: [rate('10', 3030, 303), rate('8', 1000, 80)],
});

/** A return (negative quantity and amount), a discount line of negative unit price, a rate of returns only. */
const withReturn = invoice({
  slips: [
    slip('2026-05-02', [line('ウォーター12L', 5, 1200, 6000), line('値引', 1, -300, -300)]),
    slip('2026-05-12', [line('ウォーター12L（返品）', -2, 1200, -2400), line('天然水（返品） ※', -1, 500, -500, 'reduced')]),
  ],
  rates: [rate('10', 3300, 330), rate('8', -500, -40)],
});

const salesOnly = { slips: [slip('2026-05-10', [line('ウォーター12L', 4, 1250, 5000)])], rates: [rate('10', 5000, 500)] };

/** A balance still owed from the previous invoice: 前回 16,500 − 入金 10,500 = 繰越 6,000. */
const carried = invoice({
  ...salesOnly, prevTotal: 16_500, paid: 10_500, payments: [{ date: '2026-04-30', kind: '振込', amount: 10_500, late: false }],
});

/** An overpayment carried: 前回 5,500 − 入金 8,500 = 繰越 −3,000. */
const overpaid = invoice({
  ...salesOnly, prevTotal: 5500, paid: 8500, payments: [{ date: '2026-05-08', kind: '振込', amount: 8500, late: false }],
});

/** The previous invoice paid in full. */
const paidInFull = invoice({
  ...salesOnly, prevTotal: 12_000, paid: 12_000,
  payments: [{ date: '2026-04-28', kind: '口座振替', amount: 7000, late: false }, { date: '2026-05-11', kind: '現金', amount: 5000, late: false }],
});

/** A 修正 version: it corrects B-2026-0042. */
const correction = invoice({ ...salesOnly, number: 'B-2026-0042-2', corrects: 'B-2026-0042' });

/** 非課税 and 不課税 (a bottle deposit) beside a taxed line. */
const exemptAndOutside = invoice({
  slips: [slip('2026-05-06', [line('ウォーター12L', 2, 1200, 2400), line('収入印紙代', 1, 200, 200, 'exempt'), line('ボトル保証金', 2, 500, 1000, 'outside')])],
  rates: [rate('10', 2400, 240), rate('exempt', 200, 0), rate('outside', 1000, 0)],
});

/** No sales in the period: the carried balance alone. */
const noSales = invoice({ slips: [], rates: [], prevTotal: 5000, paid: 0 });
const noSalesOverpaid = invoice({ slips: [], rates: [], prevTotal: 3000, paid: 4000, payments: [{ date: '2026-05-01', kind: '振込', amount: 4000, late: false }] });
const nothingAtAll = invoice({ slips: [], rates: [], prevTotal: 3000, paid: 3000, payments: [{ date: '2026-05-01', kind: '振込', amount: 3000, late: false }] });

const CASES: [string, InvoiceDocument][] = [
  ['standard and reduced rates together (外税)', standardAndReduced],
  ['内税 whose per-rate tax is the taxable amount × rate', taxIncludedExact],
  ['a return and a discount', withReturn],
  ['a balance carried from the previous invoice', carried],
  ['an overpayment carried (a negative balance)', overpaid],
  ['a payment of the previous invoice in full', paidInFull],
  ['a 修正 version', correction],
  ['非課税 and 不課税 lines', exemptAndOutside],
  ['no sales, a balance carried', noSales],
  ['no sales, an overpayment carried', noSalesOverpaid],
  ['no sales and nothing carried', nothingAtAll],
];

// ── Reading the XML back ─────────────────────────────────────────────────────────────────────────────────────────

const unescape = (text: string) => text.replace(/&#10;/g, '\n').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&apos;/g, "'").replace(/&amp;/g, '&');
const blocks = (xml: string, name: string): string[] => [...xml.matchAll(new RegExp(`<${name}>([\\s\\S]*?)</${name}>`, 'g'))].map((m) => m[1]);
const value = (xml: string, name: string): string | undefined => {
  const m = new RegExp(`<${name}(?: [^>]*)?>([^<]*)</${name}>`).exec(xml);
  return m ? unescape(m[1]) : undefined;
};
const money = (xml: string, name: string): number | undefined => {
  const text = value(xml, name);
  return text === undefined ? undefined : Number(text);
};

interface Subtotal { category: string; percent?: number; taxable: number; tax: number }
const subtotalsOf = (xml: string): Subtotal[] =>
  blocks(xml, 'cac:TaxSubtotal').map((s) => {
    const category = blocks(s, 'cac:TaxCategory')[0];
    const percent = value(category, 'cbc:Percent');
    return { category: value(category, 'cbc:ID') ?? '', percent: percent === undefined ? undefined : Number(percent), taxable: money(s, 'cbc:TaxableAmount') ?? NaN, tax: money(s, 'cbc:TaxAmount') ?? NaN };
  });

interface Line { id: string; net: number; category: string; percent?: number; quantity: number; price: number; base: number; start?: string; note?: string }
const linesOf = (xml: string): Line[] =>
  blocks(xml, 'cac:InvoiceLine').map((l) => {
    const category = blocks(l, 'cac:ClassifiedTaxCategory')[0];
    const percent = value(category, 'cbc:Percent');
    return {
      id: value(l, 'cbc:ID') ?? '', net: money(l, 'cbc:LineExtensionAmount') ?? NaN, category: value(category, 'cbc:ID') ?? '',
      percent: percent === undefined ? undefined : Number(percent), quantity: Number(value(l, 'cbc:InvoicedQuantity')),
      price: Number(value(l, 'cbc:PriceAmount')), base: Number(value(l, 'cbc:BaseQuantity')), start: value(l, 'cbc:StartDate'), note: value(l, 'cbc:Note'),
    };
  });
const totalsOf = (xml: string) => blocks(xml, 'cac:LegalMonetaryTotal')[0];

/** The JP PINT category our bucket must become. */
const expectedCategory = (key: string): Pick<Subtotal, 'category' | 'percent'> =>
  key === 'exempt' ? { category: 'E', percent: 0 } : key === 'outside' ? { category: 'O', percent: undefined } : key === '8' ? { category: 'AA', percent: 8 } : { category: 'S', percent: Number(key) };

const ids = (failures: readonly PintFailure[]) => [...new Set(failures.map((f) => f.id))].sort();

/** The XML states our figures: one breakdown per rate, Σ lines per category = the rate's 税抜, amount due = 今回請求額. */
function expectOurFigures(doc: InvoiceDocument, xml: string): void {
  const subtotals = subtotalsOf(xml);
  const lines = linesOf(xml);
  for (const r of doc.rates) {
    const category = expectedCategory(r.key);
    expect(subtotals.filter((s) => s.category === category.category && s.percent === category.percent), r.key).toEqual([{ ...category, taxable: r.net, tax: r.tax }]);
    const sum = lines.filter((l) => l.category === category.category && l.percent === category.percent).reduce((s, l) => s + l.net, 0);
    expect(sum, `Σ lines of ${r.key}`).toBe(r.net);
  }
  // Nothing beyond our rates but the 0 円 breakdown of the 0 円 line of an invoice without sales.
  expect(subtotals.length).toBe(doc.rates.length + (doc.slips.length === 0 && !doc.rates.some((r) => r.key === 'outside') ? 1 : 0));
  for (const extra of subtotals.filter((s) => !doc.rates.some((r) => expectedCategory(r.key).category === s.category))) expect(extra).toEqual({ category: 'O', percent: undefined, taxable: 0, tax: 0 });
  expect(money(blocks(xml, 'cac:TaxTotal')[0], 'cbc:TaxAmount')).toBe(doc.tax);
  const totals = totalsOf(xml);
  expect(money(totals, 'cbc:LineExtensionAmount')).toBe(doc.salesNet);
  expect(money(totals, 'cbc:TaxExclusiveAmount')).toBe(doc.salesNet);
  expect(money(totals, 'cbc:TaxInclusiveAmount')).toBe(doc.salesNet + doc.tax);
  expect(money(totals, 'cbc:PrepaidAmount') ?? 0).toBe(0 - doc.carry);
  expect(money(totals, 'cbc:PayableAmount')).toBe(doc.total);
}

// ── The tests ────────────────────────────────────────────────────────────────────────────────────────────────────

describe('the JP PINT rule sets (OpenPeppol, offline)', { timeout: 60_000 }, () => {
  beforeAll(preparePint, 240_000);
  const examples = readdirSync(PINT_EXAMPLES).filter((f) => f.endsWith('.xml')).sort();

  it('are the bundle\'s nine examples', () => {
    expect(examples).toHaveLength(9);
  });

  it.each(examples)('pass the official example %s with no fatal failure', async (file) => {
    const report = await validatePint(readFileSync(join(PINT_EXAMPLES, file), 'utf8'));
    expect(report.fatal).toEqual([]);
  });

  it('fail an example whose tax breakdown was changed, naming the rules', async () => {
    const xml = readFileSync(join(PINT_EXAMPLES, 'Japan PINT Invoice UBL Example1-minimum.xml'), 'utf8');
    const broken = xml.replace(/(<cbc:TaxAmount currencyID="JPY">)25250(<\/cbc:TaxAmount> <!-- IBT-117)/, '$125251$2');
    expect(broken).not.toBe(xml);
    const report = await validatePint(broken);
    // Σ breakdown ≠ the invoice's tax (PINT), and 252,500 × 10 % ≠ 25,251 (Japan).
    expect(ids(report.fatal)).toEqual(['aligned-ibrp-051-jp', 'ibr-co-14']);
    const failure = report.fatal.find((f) => f.id === 'ibr-co-14');
    expect(failure?.text).toMatch(/^\[ibr-co-14\]-Invoice total Tax amount/);
    expect(failure?.location).toMatch(/TaxTotal/);
  });
});

describe('our invoices as JP PINT', { timeout: 60_000 }, () => {
  beforeAll(preparePint, 240_000);

  it('are built from documents that reconcile', () => {
    for (const [name, doc] of [...CASES, ['内税', taxIncluded] as const]) expect(invoiceProblems(doc), name).toEqual([]);
  });

  it.each(CASES)('pass both rule sets: %s', async (_name, doc) => {
    const xml = pintInvoiceXml(doc, { issueDate: '2026-05-25', buyerEndpoint: BUYER });
    const report = await validatePint(xml);
    expect(report.fatal).toEqual([]);
    expectOurFigures(doc, xml);
  });

  it('pass 内税 with the NTA per-rate figures but for the Japanese tax-rounding rule on that rate', async () => {
    const xml = pintInvoiceXml(taxIncluded, { issueDate: '2026-05-25', buyerEndpoint: BUYER });
    const report = await validatePint(xml);
    // 6,075 × 8 % = 486, the rule wants 486 where the NTA method (tax out of 6,560) gives 485: that breakdown only.
    expect(ids(report.fatal)).toEqual(['aligned-ibrp-051-jp']);
    expect(report.fatal).toHaveLength(1);
    const subtotal = blocks(xml, 'cac:TaxSubtotal')[Number(/\[(\d+)\]$/.exec(report.fatal[0].location)?.[1]) - 1];
    expect(money(subtotal, 'cbc:TaxableAmount')).toBe(6075);
    expect(money(subtotal, 'cbc:TaxAmount')).toBe(485);
    expectOurFigures(taxIncluded, xml);
  });

  it('states 内税 lines tax-exclusive, the rate\'s tax shared by the largest remainder, with an exact net price', () => {
    const lines = linesOf(pintInvoiceXml(taxIncluded, { issueDate: '2026-05-25', buyerEndpoint: BUYER }));
    // 485 over 3,240 and 3,320: 239.54 → 240 (the larger remainder), 245.46 → 245.
    expect(lines.map((l) => [l.category, l.net, l.quantity, l.price, l.base])).toEqual([
      ['AA', 3000, 2, 1500, 1], ['S', 3000, 1, 3000, 1], ['AA', 3075, 2, 1537.5, 1],
    ]);
    // A net not exact per unit is priced for the whole quantity.
    expect(priceOf(3, 1111, 3333, 3030)).toEqual({ quantity: 3, price: 1010, baseQuantity: 1 });
    expect(priceOf(3, 1000, 3000, 2728)).toEqual({ quantity: 3, price: 2728, baseQuantity: 3 });
    expect(priceOf(-2, 1620, -3240, -3000)).toEqual({ quantity: -2, price: 1500, baseQuantity: 1 });
  });

  it('states each slip line with its date, slip number and tax category; a slip before the period in the note', () => {
    const xml = pintInvoiceXml(standardAndReduced, { issueDate: '2026-05-25', buyerEndpoint: BUYER });
    const lines = linesOf(xml);
    expect(lines.map((l) => l.id)).toEqual(['1', '2', '3', '4', '5']);
    expect(lines.map((l) => [l.category, l.percent, l.start])).toEqual([
      ['S', 10, undefined], ['S', 10, '2026-05-03'], ['AA', 8, '2026-05-03'], ['S', 10, '2026-05-17'], ['AA', 8, '2026-05-17'],
    ]);
    expect(lines[0].note).toBe('伝票 S-1001／取引日 2026-04-18（前回締め後計上）');
    expect(lines[1].note).toBe('伝票 S-1002／納品先 山田商店 駅前店');
    expect(lines[2]).toMatchObject({ quantity: 3, price: 86.45, net: 259 });
    expect(blocks(xml, 'cac:InvoiceLine')[3]).toMatch(/<cac:DocumentReference>\s*<cbc:ID>S-1003<\/cbc:ID>/);
    expect(blocks(xml, 'cac:InvoiceLine')[2]).toContain('<cbc:Description>軽減税率対象</cbc:Description>');
  });

  it('states a return with a negative quantity and a discount as a negative quantity at a positive price', () => {
    const lines = linesOf(pintInvoiceXml(withReturn, { issueDate: '2026-05-25', buyerEndpoint: BUYER }));
    expect(lines.map((l) => [l.quantity, l.price, l.net])).toEqual([[5, 1200, 6000], [-1, 300, -300], [-2, 1200, -2400], [-1, 500, -500]]);
  });

  it('names the seller by its 登録番号, the buyer by its name and address, the period and the due date', () => {
    const xml = pintInvoiceXml(standardAndReduced, { issueDate: '2026-05-25', buyerEndpoint: BUYER });
    expect(value(xml, 'cbc:CustomizationID')).toBe('urn:peppol:pint:billing-1@jp-1');
    expect(value(xml, 'cbc:ProfileID')).toBe('urn:peppol:bis:billing');
    expect(value(xml, 'cbc:ID')).toBe('B-2026-0105');
    expect(value(xml, 'cbc:IssueDate')).toBe('2026-05-25');
    expect(value(xml, 'cbc:DueDate')).toBe('2026-06-30');
    expect(value(xml, 'cbc:DocumentCurrencyCode')).toBe('JPY');
    const period = blocks(xml, 'cac:InvoicePeriod')[0];
    expect([value(period, 'cbc:StartDate'), value(period, 'cbc:EndDate')]).toEqual(['2026-04-21', '2026-05-20']);
    const seller = blocks(xml, 'cac:AccountingSupplierParty')[0];
    expect(seller).toContain('<cbc:EndpointID schemeID="0221">T1180301018771</cbc:EndpointID>');
    expect(value(blocks(seller, 'cac:PartyTaxScheme')[0], 'cbc:CompanyID')).toBe('T1180301018771');
    expect(value(seller, 'cbc:RegistrationName')).toBe('株式会社アクア宅配');
    const buyer = blocks(xml, 'cac:AccountingCustomerParty')[0];
    expect(buyer).toContain('<cbc:EndpointID schemeID="0188">7000012050002</cbc:EndpointID>');
    expect(value(buyer, 'cbc:RegistrationName')).toBe('山田商店 & Co. <本店>');
    expect(buyer).toContain('山田商店 &amp; Co. &lt;本店&gt;');
    expect([value(buyer, 'cbc:StreetName'), value(buyer, 'cbc:AdditionalStreetName'), value(buyer, 'cbc:PostalZone')]).toEqual(['北海道札幌市中央区北1条西1-1', 'ＡＢＣビル 3F', '0600001']);
    expect(blocks(xml, 'cac:BillingReference')).toEqual([]);
  });

  it('refers a 修正 version to the invoice it corrects', () => {
    const xml = pintInvoiceXml(correction, { issueDate: '2026-05-25', buyerEndpoint: BUYER });
    expect(value(blocks(blocks(xml, 'cac:BillingReference')[0], 'cac:InvoiceDocumentReference')[0], 'cbc:ID')).toBe('B-2026-0042');
    expect(value(xml, 'cbc:Note')).toMatch(/^請求書 B-2026-0042 を訂正する修正請求書です。/);
  });

  it('states the carried balance as the paid amount, negative while a balance is owed', () => {
    expect(money(totalsOf(pintInvoiceXml(carried, { issueDate: '2026-05-25', buyerEndpoint: BUYER })), 'cbc:PrepaidAmount')).toBe(-6000);
    expect(money(totalsOf(pintInvoiceXml(overpaid, { issueDate: '2026-05-25', buyerEndpoint: BUYER })), 'cbc:PrepaidAmount')).toBe(3000);
    expect(money(totalsOf(pintInvoiceXml(paidInFull, { issueDate: '2026-05-25', buyerEndpoint: BUYER })), 'cbc:PrepaidAmount')).toBeUndefined();
    const note = value(pintInvoiceXml(carried, { issueDate: '2026-05-25', buyerEndpoint: BUYER }), 'cbc:Note');
    expect(note).toContain('前回請求額 16,500円／ご入金額 10,500円／繰越額 6,000円');
    expect(note).toContain('ご入金: 2026-04-30 振込 10,500円');
  });

  it('gives an invoice without sales one 0 円 line outside the scope of tax', () => {
    const xml = pintInvoiceXml(noSales, { issueDate: '2026-05-25', buyerEndpoint: BUYER });
    expect(linesOf(xml)).toEqual([{ id: '1', net: 0, category: 'O', percent: undefined, quantity: 0, price: 0, base: 1, start: undefined, note: '繰越額 5,000円 のみのご請求です' }]);
    expect(money(totalsOf(xml), 'cbc:PayableAmount')).toBe(5000);
  });

  it('needs the buyer\'s Peppol address: without one the rules refuse the invoice (ibr-080)', async () => {
    const report = await validatePint(pintInvoiceXml(standardAndReduced, { issueDate: '2026-05-25' }));
    expect(ids(report.fatal)).toEqual(['ibr-080']);
  });

  it('refuses a document whose parts disagree', () => {
    expect(() => pintInvoiceXml({ ...standardAndReduced, total: standardAndReduced.total + 1 }, { issueDate: '2026-05-25', buyerEndpoint: BUYER })).toThrow(/金額が合わない/);
  });
});

describe('XML text', () => {
  it('escapes markup, keeps line breaks as references and drops what XML cannot hold', () => {
    expect(xmlText('A & B <株> "x" \'y\'\n2行目\u0001')).toBe('A &amp; B &lt;株&gt; &quot;x&quot; &apos;y&apos;&#10;2行目');
  });
  it('writes decimals plainly', () => {
    expect([decimalText(86.4), decimalText(1000), decimalText(-0), decimalText(1537.5), decimalText(0.0001)]).toEqual(['86.4', '1000', '0', '1537.5', '0.0001']);
  });
});
