/**
 * The invoice as a digital invoice: JP PINT 1.1.3 (Peppol BIS Billing for Japan, 「デジタルインボイス」), a UBL 2.1
 * Invoice built from the `InvoiceDocument` the PDF draws — the same figures to the yen, nothing recomputed.
 *
 * - Seller: our company (自社情報), its 登録番号 as the seller tax identifier (ibt-031, `PartyTaxScheme/CompanyID`
 *   with TaxScheme VAT) and, unless told otherwise, as its electronic address under scheme 0221 (the registered number
 *   of the qualified invoice issuer). Buyer: the recipient's name and address; its Peppol address (ibt-049, mandatory
 *   for the rules) is what `options.buyerEndpoint` gives — we hold none for customers.
 * - One invoice line per slip line: its slip number as the line's document reference (ibt-188, the delivery note of a
 *   合算請求書), the slip date as the line period when it lies in the invoice period, else in the line note (a slip
 *   entered after the previous closing, 「前回締め後計上」: a line period must lie within the invoice period).
 *   Tax categories: 標準税率 S, 軽減税率 AA (and the item description 「軽減税率対象」), 非課税 E at 0 %, 不課税 O
 *   without a rate.
 * - The tax breakdown is the invoice's `rates`: one TaxSubtotal per rate, taxable amount = its 税抜, tax = its tax.
 *   JP PINT wants tax-exclusive line amounts: the lines of a rate whose amounts include tax (内税) share the rate's
 *   tax in proportion to their amounts, whole yen by the largest remainder (`lineShares`), so they add up to the
 *   rate's 税抜 exactly.
 * - The carried balance (繰越額 = 前回請求額 − 入金額) is not a supply of this invoice: it is the paid amount
 *   (ibt-113 `PrepaidAmount` = 入金額 − 前回請求額 = −繰越額; negative when a balance is still owed, positive for an
 *   overpayment), so that the amount due (ibt-115) is 今回請求額 while the invoice total with tax (ibt-112) stays this
 *   period's sales and tax, and the breakdown stays ours. An invoice without sales still needs one line (ibr-016):
 *   a 0 円 line 「今回のお取引はありません」 outside the scope of tax.
 * - A 修正 version names the invoice it corrects as the preceding invoice reference (ibg-03, `BillingReference`).
 *
 * tests/unit/pint.test.ts validates the XML with OpenPeppol's own rule sets (tests/support/pint-validate.ts).
 */
import { bucketKey, lineShares, type TaxedAmount } from '../../lib/money/totals';
import { assertReconciles, type InvoiceDocument, type InvoiceLine, type InvoiceRate, type InvoiceSlip } from './invoice-document';

export const PINT_CUSTOMIZATION_ID = 'urn:peppol:pint:billing-1@jp-1';
export const PINT_PROFILE_ID = 'urn:peppol:bis:billing';
/** Piece (UN/ECE Recommendation 20): our quantities count bottles, boxes and services. */
export const PINT_UNIT_CODE = 'H87';

/** A Peppol electronic address: an EAS scheme (`0221` 登録番号, `0188` 法人番号, …) and the identifier. */
export interface PeppolEndpoint {
  scheme: string;
  id: string;
}

export interface PintOptions {
  /** The invoice issue date (ibt-002), YYYY-MM-DD. */
  issueDate: string;
  /** The buyer's Peppol address (ibt-049). The rules require one (ibr-080); without it the element is left out. */
  buyerEndpoint?: PeppolEndpoint;
  /** Our Peppol address (ibt-034); by default scheme 0221 with the 登録番号. */
  sellerEndpoint?: PeppolEndpoint;
}

/** A tax category of JP PINT (Aligned-TaxCategoryCodes): the rate is given except for O (outside the scope of tax). */
export interface PintCategory {
  code: 'S' | 'AA' | 'E' | 'O';
  percent?: number;
}

const NS = {
  '': 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

// ── XML text ─────────────────────────────────────────────────────────────────────────────────────────────────────

/** Characters XML 1.0 cannot hold at all (C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF). */
// eslint-disable-next-line no-control-regex
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/**
 * Text (or an attribute value) escaped for XML: the markup characters as entities, line breaks as character references
 * (so that indenting the document never changes a value), characters XML cannot hold dropped.
 * @example xmlText('A & B <株>\n2行目') // 'A &amp; B &lt;株&gt;&#10;2行目'
 */
export const xmlText = (value: string): string =>
  value.replace(NOT_XML, '').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;').replace(/\r/g, '&#13;').replace(/\n/g, '&#10;');

type Attributes = Readonly<Record<string, string>>;

const attributes = (attrs: Attributes): string => Object.entries(attrs).map(([k, v]) => ` ${k}="${xmlText(v)}"`).join('');

/** An element holding text; nothing when the text is blank (the rules refuse empty elements, ibr-079). */
function leaf(name: string, value: string | undefined, attrs: Attributes = {}): string {
  const text = (value ?? '').trim();
  return text === '' ? '' : `<${name}${attributes(attrs)}>${xmlText(text)}</${name}>`;
}

/** An element of child elements, indented; nothing when it has none. */
function group(name: string, children: readonly string[], attrs: Attributes = {}): string {
  const present = children.filter((c) => c !== '');
  if (present.length === 0) return '';
  const inner = present.join('\n').replace(/^/gm, '  ');
  return `<${name}${attributes(attrs)}>\n${inner}\n</${name}>`;
}

// ── Numbers ──────────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Whole yen as the rules want them (JPY has no decimals; a tax amount with one is refused, aligned-ibr-jp-06).
 * @example yenText(-300) // '-300'
 */
export function yenText(amount: number): string {
  if (!Number.isSafeInteger(amount)) throw new RangeError(`an amount is whole yen: ${amount}`);
  return String(amount === 0 ? 0 : amount);
}

/**
 * A quantity, price or percent: plain decimals without an exponent or trailing zeros (at most four places).
 * @example decimalText(86.4) // '86.4'
 * @example decimalText(1000) // '1000'
 */
export function decimalText(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError(`not a number: ${value}`);
  const text = value.toFixed(4).replace(/\.?0+$/, '');
  return text === '-0' ? '0' : text;
}

const amount = (name: string, yen: number): string => `<cbc:${name} currencyID="JPY">${yenText(yen)}</cbc:${name}>`;
const yenJa = (yen: number): string => `${yen.toLocaleString('ja-JP')}円`;

// ── Tax categories and lines ─────────────────────────────────────────────────────────────────────────────────────

/**
 * The JP PINT category of one of our buckets (`10`, `8`, `exempt`, `outside`): a taxed bucket is AA when its lines
 * are 軽減税率 (or its label says so), else S; 非課税 is E at 0 %; 不課税 is O, without a rate.
 * @example categoryOf('8', 8, true) // { code: 'AA', percent: 8 }
 * @example categoryOf('outside', 0, false) // { code: 'O' }
 */
export function categoryOf(key: string, rate: number, reduced: boolean): PintCategory {
  if (key === 'exempt') return { code: 'E', percent: 0 };
  if (key === 'outside') return { code: 'O' };
  return { code: reduced ? 'AA' : 'S', percent: rate };
}

const lineKey = (line: Pick<InvoiceLine, 'taxClass' | 'rate'>): string => bucketKey(line.taxClass, line.rate);

const categoryXml = (name: 'TaxCategory' | 'ClassifiedTaxCategory', category: PintCategory): string =>
  group(`cac:${name}`, [
    leaf('cbc:ID', category.code),
    category.percent === undefined ? '' : leaf('cbc:Percent', decimalText(category.percent)),
    group('cac:TaxScheme', [leaf('cbc:ID', 'VAT')]),
  ]);

/** One invoice line as the XML states it. */
export interface PintLine {
  /** The slip line, or undefined for the 0 円 line of an invoice without sales. */
  source?: { slip: InvoiceSlip; line: InvoiceLine };
  name: string;
  /** Tax-exclusive amount (ibt-131). */
  net: number;
  /** Invoiced quantity (ibt-129): negative for a return or a discount. */
  quantity: number;
  /** Item net price (ibt-146), never negative, per `baseQuantity` (ibt-149). */
  price: number;
  baseQuantity: number;
  category: PintCategory;
  /** The slip date as the line period (in the invoice period), else undefined. */
  day?: string;
  note: string;
  /** Item attributes (ibg-32), e.g. the tax-inclusive unit price of a 内税 line. */
  properties: [string, string][];
}

/**
 * The price and quantity of a line: the unit price as it is when the line amount is tax-exclusive (a negative price
 * turns the quantity's sign, the price itself is never negative, ibr-027); for a line whose net was derived from a
 * tax-inclusive amount, the net price per unit when it is exact to the sen, else the line's net for its whole
 * quantity as the price base quantity — so that price ÷ base × quantity is the line's net exactly.
 * @example priceOf(6, 1093.33, 6560, 6075) // { quantity: 6, price: 1012.5, baseQuantity: 1 }
 */
export function priceOf(quantity: number, unitPrice: number, amount: number, net: number): { quantity: number; price: number; baseQuantity: number } {
  if (net === amount) return { quantity: unitPrice < 0 ? -quantity : quantity, price: Math.abs(unitPrice), baseQuantity: 1 };
  const q = Math.abs(quantity);
  if (q === 0) return { quantity, price: 0, baseQuantity: 1 };
  const signed = net < 0 ? -q : net > 0 ? q : quantity;
  const sen = (Math.abs(net) * 100) / q;
  return Number.isInteger(q) && Number.isInteger(sen)
    ? { quantity: signed, price: sen / 100, baseQuantity: 1 }
    : { quantity: signed, price: Math.abs(net), baseQuantity: q };
}

const inPeriod = (doc: Pick<InvoiceDocument, 'periodFrom' | 'periodTo'>, day: string): boolean =>
  (doc.periodFrom === '' || day >= doc.periodFrom) && (doc.periodTo === '' || day <= doc.periodTo);

/** Whether a bucket is 軽減税率: one of its lines is, or its label says so. */
const isReduced = (doc: InvoiceDocument, key: string, label = ''): boolean =>
  label.includes('軽減') || doc.slips.some((s) => s.lines.some((l) => lineKey(l) === key && l.taxClass === 'reduced'));

/**
 * The invoice lines of a document: each slip line with its tax-exclusive amount — a rate whose lines add up to its
 * 税込 (内税) shares its tax over them so they add up to its 税抜 — or the single 0 円 line of an invoice without sales.
 */
export function pintLines(doc: InvoiceDocument): PintLine[] {
  const sources = doc.slips.flatMap((slip) => slip.lines.map((line) => ({ slip, line })));
  if (sources.length === 0) {
    return [{
      name: '今回のお取引はありません', net: 0, quantity: 0, price: 0, baseQuantity: 1, category: { code: 'O' },
      note: doc.carry === 0 ? '' : `繰越額 ${yenJa(doc.carry)} のみのご請求です`, properties: [],
    }];
  }
  const taxed: TaxedAmount[] = sources.map(({ line }) => ({ amount: line.amount, taxClass: line.taxClass, taxRate: line.rate }));
  const sums = new Map<string, number>();
  for (const { line } of sources) sums.set(lineKey(line), (sums.get(lineKey(line)) ?? 0) + line.amount);
  // Each bucket's lines reach the rate's 税抜: the difference (the tax of 内税 lines, else 0) is shared over them.
  const buckets = [...sums].map(([key, sum]) => {
    const net = doc.rates.find((r) => r.key === key)?.net ?? sum;
    return { key, amount: sum, net, tax: sum - net };
  });
  const shares = lineShares(taxed, buckets);
  return sources.map(({ slip, line }, i) => {
    const net = shares[i].net;
    const key = lineKey(line);
    const rate = doc.rates.find((r) => r.key === key);
    const category = categoryOf(key, line.rate, isReduced(doc, key, rate?.label));
    const inside = slip.date !== '' && inPeriod(doc, slip.date);
    const note = [
      slip.number === '' ? '' : `伝票 ${slip.number}`,
      slip.date === '' || inside ? '' : `取引日 ${slip.date}${slip.late ? '（前回締め後計上）' : ''}`,
      slip.site === '' ? '' : `納品先 ${slip.site}`,
    ].filter(Boolean).join('／');
    const properties: [string, string][] = net === line.amount ? [] : [['税込単価', decimalText(line.unitPrice)], ['税込金額', yenText(line.amount)]];
    return {
      source: { slip, line }, name: line.name.trim() || '品目', net, ...priceOf(line.quantity, line.unitPrice, line.amount, net),
      category, day: inside ? slip.date : undefined, note, properties,
    };
  });
}

/** One tax breakdown (ibg-23): a rate of ours, or none for the 0 円 breakdown of a category no rate covers. */
export interface PintSubtotal {
  taxable: number;
  tax: number;
  category: PintCategory;
  rate?: InvoiceRate;
}

/** The tax breakdown: our rates as they are, and a 0 円 breakdown for a line category no rate covers. */
export function pintSubtotals(doc: InvoiceDocument, lines: readonly PintLine[]): PintSubtotal[] {
  const subtotals: PintSubtotal[] = doc.rates.map((rate) => ({
    taxable: rate.net, tax: rate.tax, rate, category: categoryOf(rate.key, rate.rate, isReduced(doc, rate.key, rate.label)),
  }));
  const same = (a: PintCategory, b: PintCategory) => a.code === b.code && a.percent === b.percent;
  for (const line of lines) {
    if (!subtotals.some((s) => same(s.category, line.category))) subtotals.push({ taxable: 0, tax: 0, category: line.category });
  }
  return subtotals;
}

// ── The document ─────────────────────────────────────────────────────────────────────────────────────────────────

const endpoint = (value: PeppolEndpoint | undefined): string => (value ? leaf('cbc:EndpointID', value.id, { schemeID: value.scheme }) : '');

/** The header note (ibt-022): the account of the invoice as the PDF prints it, the payments, the correction, our note. */
function headerNote(doc: InvoiceDocument): string {
  const account = [
    `前回請求額 ${yenJa(doc.prevTotal)}`, `ご入金額 ${yenJa(doc.paid)}`, `繰越額 ${yenJa(doc.carry)}`,
    `今回お買上額（税抜） ${yenJa(doc.salesNet)}`, `消費税額 ${yenJa(doc.tax)}`, `今回ご請求額 ${yenJa(doc.total)}`,
  ].join('／');
  const payments = doc.payments.map((p) => `${p.date} ${p.kind} ${yenJa(p.amount)}`).join('、');
  return [
    doc.corrects ? `請求書 ${doc.corrects} を訂正する修正請求書です。` : '',
    account,
    doc.carry === 0 ? '' : '繰越額は支払済金額に符号を反転して記載しています（支払済金額 = ご入金額 − 前回請求額）。',
    payments === '' ? '' : `ご入金: ${payments}`,
    doc.issuer.note.trim(),
  ].filter(Boolean).join('\n');
}

function lineXml(line: PintLine, id: number): string {
  return group('cac:InvoiceLine', [
    leaf('cbc:ID', String(id)),
    leaf('cbc:Note', line.note),
    leaf('cbc:InvoicedQuantity', decimalText(line.quantity), { unitCode: PINT_UNIT_CODE }),
    amount('LineExtensionAmount', line.net),
    line.day ? group('cac:InvoicePeriod', [leaf('cbc:StartDate', line.day), leaf('cbc:EndDate', line.day)]) : '',
    line.source && line.source.slip.number !== '' ? group('cac:DocumentReference', [leaf('cbc:ID', line.source.slip.number)]) : '',
    group('cac:Item', [
      line.category.code === 'AA' ? leaf('cbc:Description', '軽減税率対象') : '',
      leaf('cbc:Name', line.name),
      categoryXml('ClassifiedTaxCategory', line.category),
      ...line.properties.map(([name, value]) => group('cac:AdditionalItemProperty', [leaf('cbc:Name', name), leaf('cbc:Value', value)])),
    ]),
    group('cac:Price', [
      `<cbc:PriceAmount currencyID="JPY">${decimalText(line.price)}</cbc:PriceAmount>`,
      leaf('cbc:BaseQuantity', decimalText(line.baseQuantity), { unitCode: PINT_UNIT_CODE }),
    ]),
  ]);
}

/**
 * The JP PINT 1.1.3 invoice (UBL 2.1 Invoice XML) of a document. Refuses (400) a document whose parts disagree, as
 * the PDF does (`assertReconciles`).
 * @example pintInvoiceXml(doc, { issueDate: '2026-05-25', buyerEndpoint: { scheme: '0188', id: '7000012050002' } })
 */
export function pintInvoiceXml(doc: InvoiceDocument, options: PintOptions): string {
  assertReconciles(doc);
  const lines = pintLines(doc);
  const subtotals = pintSubtotals(doc, lines);
  const lineTotal = lines.reduce((s, l) => s + l.net, 0);
  if (lineTotal !== doc.salesNet) throw new RangeError(`請求 ${doc.number}: 明細の税抜合計 ${lineTotal} が 今回売上額 ${doc.salesNet} と一致しません`);
  const taxTotal = subtotals.reduce((s, t) => s + t.tax, 0);
  const inclusive = lineTotal + taxTotal;
  const prepaid = -doc.carry;
  if (inclusive - prepaid !== doc.total) throw new RangeError(`請求 ${doc.number}: 支払金額 ${inclusive - prepaid} が 今回請求額 ${doc.total} と一致しません`);

  const { issuer, recipient } = doc;
  const seller = options.sellerEndpoint ?? { scheme: '0221', id: issuer.registrationNumber };
  const zip = (code: string) => code.replace(/[^0-9]/g, '');
  const paymentTerms = [doc.dueDate ? `お支払期限 ${doc.dueDate}` : '', issuer.bankAccount ? `お振込先 ${issuer.bankAccount}` : ''].filter(Boolean).join('／');

  const body = [
    leaf('cbc:CustomizationID', PINT_CUSTOMIZATION_ID),
    leaf('cbc:ProfileID', PINT_PROFILE_ID),
    leaf('cbc:ID', doc.number),
    leaf('cbc:IssueDate', options.issueDate),
    leaf('cbc:DueDate', doc.dueDate),
    leaf('cbc:InvoiceTypeCode', '380'),
    leaf('cbc:Note', headerNote(doc)),
    leaf('cbc:DocumentCurrencyCode', 'JPY'),
    group('cac:InvoicePeriod', [leaf('cbc:StartDate', doc.periodFrom), leaf('cbc:EndDate', doc.periodTo)]),
    doc.corrects ? group('cac:BillingReference', [group('cac:InvoiceDocumentReference', [leaf('cbc:ID', doc.corrects)])]) : '',
    group('cac:AccountingSupplierParty', [group('cac:Party', [
      endpoint(seller),
      group('cac:PartyName', [leaf('cbc:Name', issuer.name)]),
      group('cac:PostalAddress', [
        leaf('cbc:StreetName', issuer.address), leaf('cbc:PostalZone', zip(issuer.zipcode)),
        group('cac:Country', [leaf('cbc:IdentificationCode', 'JP')]),
      ]),
      group('cac:PartyTaxScheme', [leaf('cbc:CompanyID', issuer.registrationNumber), group('cac:TaxScheme', [leaf('cbc:ID', 'VAT')])]),
      group('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', issuer.name)]),
      group('cac:Contact', [leaf('cbc:Telephone', issuer.tel), leaf('cbc:ElectronicMail', issuer.email)]),
    ])]),
    group('cac:AccountingCustomerParty', [group('cac:Party', [
      endpoint(options.buyerEndpoint),
      group('cac:PartyName', [leaf('cbc:Name', recipient.name)]),
      group('cac:PostalAddress', [
        leaf('cbc:StreetName', recipient.addressLines[0]), leaf('cbc:AdditionalStreetName', recipient.addressLines.slice(1).join(' ')),
        leaf('cbc:PostalZone', zip(recipient.zipcode)), group('cac:Country', [leaf('cbc:IdentificationCode', 'JP')]),
      ]),
      group('cac:PartyLegalEntity', [leaf('cbc:RegistrationName', recipient.name)]),
      group('cac:Contact', [leaf('cbc:Name', recipient.attention)]),
    ])]),
    paymentTerms ? group('cac:PaymentTerms', [leaf('cbc:Note', paymentTerms)]) : '',
    group('cac:TaxTotal', [
      amount('TaxAmount', taxTotal),
      ...subtotals.map((s) => group('cac:TaxSubtotal', [amount('TaxableAmount', s.taxable), amount('TaxAmount', s.tax), categoryXml('TaxCategory', s.category)])),
    ]),
    group('cac:LegalMonetaryTotal', [
      amount('LineExtensionAmount', lineTotal),
      amount('TaxExclusiveAmount', lineTotal),
      amount('TaxInclusiveAmount', inclusive),
      prepaid === 0 ? '' : amount('PrepaidAmount', prepaid),
      amount('PayableAmount', doc.total),
    ]),
    ...lines.map((line, i) => lineXml(line, i + 1)),
  ];
  const namespaces = Object.entries(NS).map(([prefix, uri]) => (prefix ? ` xmlns:${prefix}="${uri}"` : ` xmlns="${uri}"`)).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${group('Invoice', body).replace('<Invoice>', `<Invoice${namespaces}>`)}\n`;
}
