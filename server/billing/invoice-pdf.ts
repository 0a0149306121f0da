/**
 * The invoice PDF (適格請求書, A4 portrait) drawn from an `InvoiceDocument` with pdfkit: issuer with its 登録番号,
 * recipient (御中 / 様), 請求番号, 発行日, period, 前回請求額 … 今回請求額, per-rate 税抜 totals with the rate and the
 * tax, the slips' lines (※ on reduced-rate lines, with the legend), the payments, the transfer account, the due
 * date and a 修正 mark on a version that corrects a cancelled one. Lines that do not fit go on to further pages, each with the table's head and
 * 「n / m」.
 *
 * Japanese text is Noto Sans JP (TrueType outlines, the `@expo-google-fonts/noto-sans-jp` package), embedded as a
 * SUBSET of the glyphs used, with its Unicode map so the text can be searched and copied; it covers characters
 * outside the BMP such as 𠮷. The font files are parsed once per process and shared by every document (each
 * document embeds its own subset).
 *
 * Where things go is decided first (`layoutInvoice`, pure: a fixed row height, so the number of pages is known
 * before drawing), then drawn. A merged PDF (`writeInvoices`) streams page by page: pdfkit writes each page out
 * when the next begins, so a thousand invoices take the memory of one.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type { Writable } from 'node:stream';
import PDFDocument from 'pdfkit';
import { LATE_MARK } from '../../lib/closing/answers';
import { dayJa, periodText, type InvoiceDocument, type InvoiceSlip, type InvoiceLine } from './invoice-document';

const require = createRequire(import.meta.url);

/** The part of a fontkit font pdfkit needs to take it instead of a file (pdfkit ≥ 0.16 accepts a parsed font). */
interface ParsedFont {
  layout(text: string): unknown;
}
interface Fontkit {
  create(data: Uint8Array): ParsedFont;
}

const FONT_FILES = {
  regular: '@expo-google-fonts/noto-sans-jp/400Regular/NotoSansJP_400Regular.ttf',
  bold: '@expo-google-fonts/noto-sans-jp/700Bold/NotoSansJP_700Bold.ttf',
} as const;

let fonts: Record<keyof typeof FONT_FILES, ParsedFont> | undefined;

/** The two fonts, parsed on first use (about 0.1 s) and kept for the process. */
function parsedFonts(): Record<keyof typeof FONT_FILES, ParsedFont> {
  if (!fonts) {
    const fontkit = require('fontkit') as Fontkit;
    fonts = {
      regular: fontkit.create(readFileSync(require.resolve(FONT_FILES.regular))),
      bold: fontkit.create(readFileSync(require.resolve(FONT_FILES.bold))),
    };
  }
  return fonts;
}

type Pdf = PDFKit.PDFDocument;

/** A new A4 document with the Japanese fonts registered as `R` and `B` (no Helvetica is loaded). */
function newPdf(title: string, author: string, layoutCache = true): Pdf {
  // `font: ''` skips pdfkit's default Helvetica (an AFM file parsed per document).
  const pdf = new PDFDocument({
    size: 'A4', margin: 0, autoFirstPage: false, font: '', info: { Title: title, Author: author, Creator: author }, fontLayoutCache: layoutCache,
  });
  const { regular, bold } = parsedFonts();
  // pdfkit takes a parsed fontkit font where its types say a file: the object is what it would parse the file into.
  const register = pdf.registerFont.bind(pdf) as unknown as (name: string, src: ParsedFont) => Pdf;
  register('R', regular);
  register('B', bold);
  return pdf;
}

// ---- layout (points; A4 = 595.28 × 841.89) ----
export const PAGE = { width: 595.28, height: 841.89, margin: 36 } as const;
const RIGHT = PAGE.width - PAGE.margin;
const CONTENT = RIGHT - PAGE.margin;
/** The lowest y a row may end at (the footer sits below). */
const BOTTOM = PAGE.height - PAGE.margin - 18;
const ROW = 15;
const HEAD = 16;
/** Where the lines table starts on page 1: below the summary, the due date and the per-rate table of `rates` rows. */
const firstTableTop = (rates: number): number => 318 + HEAD + ROW * Math.max(rates, 1) + 12;
/** Where the lines table starts on a further page, below the continuation heading. */
const NEXT_TABLE_TOP = PAGE.margin + 26;

/** A row of the lines table: a slip's delivery site, or one line (the first of a slip on a page shows its date and number). */
export type TableRow =
  /** Before a slip's lines: its delivery site and, for a late entry, 「前回締め後計上」 with its date. */
  | { kind: 'site'; slip: InvoiceSlip }
  | { kind: 'line'; slip: InvoiceSlip; line: InvoiceLine; showSlip: boolean };

/** What follows the lines, in order. */
export type Tail =
  | { kind: 'legend' }
  | { kind: 'paymentsHead' }
  | { kind: 'payment'; index: number }
  | { kind: 'bank' }
  | { kind: 'noteHead' }
  | { kind: 'noteLine'; text: string };

export interface PlacedRow {
  y: number;
  row: TableRow;
}
export interface PlacedTail {
  y: number;
  tail: Tail;
}
export interface LaidOutPage {
  /** Where the table head is drawn (undefined: the page holds no rows). */
  tableTop?: number;
  rows: PlacedRow[];
  tails: PlacedTail[];
}

const TAIL_HEIGHT: Record<Tail['kind'], number> = { legend: 16, paymentsHead: 20 + HEAD, payment: ROW, bank: 22, noteHead: 20, noteLine: 13 };

/** Display width in em: full-width characters 1, others ½ (for wrapping the note without measuring). */
const emWidth = (ch: string): number => {
  const code = ch.codePointAt(0) ?? 0;
  return code <= 0xff || (code >= 0xff61 && code <= 0xff9f) ? 0.5 : 1;
};

/**
 * The note wrapped to lines of at most `width` em.
 * @example wrapNote('あいう\nえ', 2) // ['あい', 'う', 'え']
 */
export function wrapNote(note: string, width: number): string[] {
  const out: string[] = [];
  for (const paragraph of note.replace(/\r\n?/g, '\n').split('\n')) {
    let line = '';
    let used = 0;
    for (const ch of paragraph) {
      const w = emWidth(ch);
      if (used + w > width && line) {
        out.push(line);
        line = '';
        used = 0;
      }
      line += ch;
      used += w;
    }
    out.push(line);
  }
  while (out.length && out[out.length - 1] === '') out.pop();
  return out;
}

/** Note text size and the em per line it wraps at. */
const NOTE_SIZE = 8.5;
const NOTE_EM = Math.floor(CONTENT / NOTE_SIZE);

/**
 * Where every row and closing block of an invoice goes, page by page: page 1 carries the heading blocks and the
 * table after them, further pages a continuation heading; a block that does not fit starts a new page, and a
 * payments head stays with its first payment.
 * @example layoutInvoice(docWith(40 lines)).length // 2
 */
export function layoutInvoice(doc: InvoiceDocument): LaidOutPage[] {
  const rows: TableRow[] = [];
  for (const slip of doc.slips) {
    if (slip.site || slip.late) rows.push({ kind: 'site', slip });
    slip.lines.forEach((line, i) => rows.push({ kind: 'line', slip, line, showSlip: i === 0 }));
  }
  const tails: Tail[] = [];
  if (doc.slips.some((s) => s.lines.some((l) => l.reduced))) tails.push({ kind: 'legend' });
  if (doc.payments.length) tails.push({ kind: 'paymentsHead' }, ...doc.payments.map((_, index) => ({ kind: 'payment' as const, index })));
  if (doc.issuer.bankAccount) tails.push({ kind: 'bank' });
  const note = wrapNote(doc.issuer.note.trim(), NOTE_EM);
  if (note.length) tails.push({ kind: 'noteHead' }, ...note.map((text) => ({ kind: 'noteLine' as const, text })));

  const pages: LaidOutPage[] = [];
  let page: LaidOutPage = { tableTop: firstTableTop(doc.rates.length), rows: [], tails: [] };
  let y = page.tableTop! + HEAD;
  pages.push(page);
  const newPage = (withTable: boolean) => {
    page = { tableTop: withTable ? NEXT_TABLE_TOP : undefined, rows: [], tails: [] };
    y = withTable ? NEXT_TABLE_TOP + HEAD : NEXT_TABLE_TOP;
    pages.push(page);
  };
  for (const row of rows) {
    let placed = row;
    if (y + ROW > BOTTOM) {
      newPage(true);
      // A slip going on to a new page shows its date and number again.
      if (row.kind === 'line') placed = { ...row, showSlip: true };
    }
    page.rows.push({ y, row: placed });
    y += ROW;
  }
  y += 6;
  for (const [i, tail] of tails.entries()) {
    const next = tails[i + 1];
    const keep = tail.kind === 'paymentsHead' && next ? TAIL_HEIGHT[next.kind] : 0;
    if (y + TAIL_HEIGHT[tail.kind] + keep > BOTTOM) newPage(false);
    page.tails.push({ y, tail });
    y += TAIL_HEIGHT[tail.kind];
  }
  return pages;
}

// ---- drawing ----
const GRAY = '#e8e8e8';
const LINE = '#9a9a9a';
const INK = '#111111';
const SOFT = '#555555';

/** 12,345 / -1,300 */
const money = (n: number): string => n.toLocaleString('ja-JP');
/** A unit price: whole yen with commas, or two decimals when it has sen (86.40). */
const price = (n: number): string => (Number.isInteger(n) ? money(n) : n.toLocaleString('ja-JP', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
/** 「5/20」 */
const shortDay = (day: string): string => (/^\d{4}-\d{2}-\d{2}$/.test(day) ? `${Number(day.slice(5, 7))}/${Number(day.slice(8, 10))}` : day);

interface TextStyle {
  size: number;
  bold?: boolean;
  color?: string;
  align?: 'left' | 'right' | 'center';
}

/** Draws one line of text in a box of `width` at (x, y), cut with … when wider. */
function cell(pdf: Pdf, value: string, x: number, y: number, width: number, style: TextStyle): void {
  pdf.font(style.bold ? 'B' : 'R').fontSize(style.size).fillColor(style.color ?? INK);
  // Measured once (a text that fits, almost every one); a text cut is measured as it shortens.
  let shown = value;
  let w = pdf.widthOfString(shown);
  if (w > width) {
    const chars = [...value];
    do {
      chars.pop();
      shown = `${chars.join('')}…`;
      w = pdf.widthOfString(shown);
    } while (chars.length && w > width);
  }
  const left = style.align === 'right' ? x + width - w : style.align === 'center' ? x + (width - w) / 2 : x;
  pdf.text(shown, left, y, { lineBreak: false });
}

function box(pdf: Pdf, x: number, y: number, w: number, h: number, fill?: string): void {
  if (fill) pdf.rect(x, y, w, h).fillColor(fill).fill();
  pdf.rect(x, y, w, h).lineWidth(0.6).strokeColor(LINE).stroke();
}

const rule = (pdf: Pdf, x1: number, x2: number, y: number, color = LINE, width = 0.4): void => {
  pdf.moveTo(x1, y).lineTo(x2, y).lineWidth(width).strokeColor(color).stroke();
};

/** The lines table's columns: x and width. */
const COLS = (() => {
  const widths = { date: 40, slip: 100, mark: 14, name: 0, quantity: 44, price: 62, amount: 76 };
  widths.name = CONTENT - (widths.date + widths.slip + widths.mark + widths.quantity + widths.price + widths.amount);
  let x = PAGE.margin;
  const out = {} as Record<keyof typeof widths, { x: number; w: number }>;
  for (const key of Object.keys(widths) as (keyof typeof widths)[]) {
    out[key] = { x, w: widths[key] };
    x += widths[key];
  }
  return out;
})();

function tableHead(pdf: Pdf, y: number, taxIncluded: boolean): void {
  box(pdf, PAGE.margin, y, CONTENT, HEAD, GRAY);
  const head = (key: keyof typeof COLS, label: string, align: TextStyle['align'] = 'center') =>
    cell(pdf, label, COLS[key].x + 3, y + 3.5, COLS[key].w - 6, { size: 8, bold: true, align });
  head('date', '日付');
  head('slip', '伝票番号');
  head('name', '品名', 'left');
  head('quantity', '数量');
  head('price', '単価');
  head('amount', taxIncluded ? '金額（税込）' : '金額（税抜）');
}

function tableRow(pdf: Pdf, { y, row }: PlacedRow): void {
  const text = (key: keyof typeof COLS, value: string, style: Partial<TextStyle> = {}) =>
    cell(pdf, value, COLS[key].x + 3, y + 3.5, COLS[key].w - 6, { size: 8.5, ...style });
  if (row.kind === 'site') {
    text('name', [row.slip.late ? `${LATE_MARK}（${dayJa(row.slip.date)}）` : '', row.slip.site ? `納品先: ${row.slip.site}` : ''].filter(Boolean).join('　'), { color: SOFT, size: 8 });
  } else {
    const { line } = row;
    if (row.showSlip) {
      text('date', shortDay(row.slip.date), { align: 'center' });
      text('slip', row.slip.number, { size: 8 });
    }
    if (line.reduced) cell(pdf, '※', COLS.mark.x, y + 3.5, COLS.mark.w, { size: 8.5, align: 'center' });
    text('name', line.name);
    text('quantity', money(line.quantity), { align: 'right' });
    text('price', price(line.unitPrice), { align: 'right' });
    text('amount', money(line.amount), { align: 'right' });
  }
  rule(pdf, PAGE.margin, RIGHT, y + ROW, '#cfcfcf', 0.3);
}

function tailBlock(pdf: Pdf, doc: InvoiceDocument, { y, tail }: PlacedTail): void {
  switch (tail.kind) {
    case 'legend':
      cell(pdf, '※は軽減税率対象', PAGE.margin, y + 2, 200, { size: 8.5 });
      return;
    case 'paymentsHead': {
      cell(pdf, '入金明細', PAGE.margin, y + 4, 200, { size: 9.5, bold: true });
      const top = y + 20;
      box(pdf, PAGE.margin, top, 300, HEAD, GRAY);
      cell(pdf, '入金日', PAGE.margin + 3, top + 3.5, 94, { size: 8, bold: true, align: 'center' });
      cell(pdf, '区分', PAGE.margin + 100, top + 3.5, 94, { size: 8, bold: true, align: 'center' });
      cell(pdf, '金額', PAGE.margin + 200, top + 3.5, 94, { size: 8, bold: true, align: 'center' });
      return;
    }
    case 'payment': {
      const p = doc.payments[tail.index];
      cell(pdf, dayJa(p.date), PAGE.margin + 3, y + 3.5, 94, { size: 8.5, align: 'center' });
      cell(pdf, p.kind, PAGE.margin + 100, y + 3.5, 94, { size: 8.5, align: 'center' });
      cell(pdf, money(p.amount), PAGE.margin + 200, y + 3.5, 94, { size: 8.5, align: 'right' });
      if (p.late) cell(pdf, LATE_MARK, PAGE.margin + 306, y + 3.5, 120, { size: 8, color: SOFT });
      rule(pdf, PAGE.margin, PAGE.margin + 300, y + ROW, '#cfcfcf', 0.3);
      return;
    }
    case 'bank':
      cell(pdf, 'お振込先', PAGE.margin, y + 6, 60, { size: 9.5, bold: true });
      cell(pdf, doc.issuer.bankAccount, PAGE.margin + 62, y + 6, CONTENT - 62, { size: 9.5 });
      return;
    case 'noteHead':
      cell(pdf, '備考', PAGE.margin, y + 6, 100, { size: 9.5, bold: true });
      return;
    case 'noteLine':
      cell(pdf, tail.text, PAGE.margin, y, CONTENT, { size: NOTE_SIZE });
      return;
  }
}

/** Page 1's heading blocks: title, 修正, numbers, recipient, issuer, period, amounts, due date and rates. */
function firstPageHeading(pdf: Pdf, doc: InvoiceDocument): void {
  const M = PAGE.margin;
  cell(pdf, '請求書', M, M, CONTENT, { size: 22, bold: true, align: 'center' });
  // A 修正インボイス: it replaces an issued invoice that a 締め戻し cancelled, and names it.
  if (doc.corrects) {
    pdf.rect(RIGHT - 64, M, 64, 24).lineWidth(1.2).strokeColor('#b00020').stroke();
    cell(pdf, '修正', RIGHT - 64, M + 4, 64, { size: 12, bold: true, color: '#b00020', align: 'center' });
    cell(pdf, `修正インボイス：請求書 ${doc.corrects} を訂正します`, M, M + 34, 270, { size: 9, color: '#b00020' });
  }
  cell(pdf, `請求番号 ${doc.number}`, RIGHT - 220, M + 34, 220, { size: 9, align: 'right' });
  cell(pdf, `発行日 ${dayJa(doc.issuedOn)}`, RIGHT - 220, M + 47, 220, { size: 9, align: 'right' });

  // Recipient (left)
  const r = doc.recipient;
  let y = 100;
  if (r.zipcode) cell(pdf, `〒${r.zipcode}`, M, y, 270, { size: 9 });
  y += 13;
  for (const line of r.addressLines) {
    cell(pdf, line, M, y, 270, { size: 9.5 });
    y += 13;
  }
  y = Math.max(y + 4, 142);
  if (r.attention) {
    cell(pdf, r.name, M, y, 270, { size: 13, bold: true });
    y += 20;
    cell(pdf, `${r.attention}　${r.honorific}`, M, y, 270, { size: 11, bold: true });
    y += 17;
  } else {
    cell(pdf, `${r.name}　${r.honorific}`, M, y, 270, { size: 13, bold: true });
    y += 20;
  }
  rule(pdf, M, M + 270, y, INK, 0.8);
  cell(pdf, `お客様番号 ${r.cl_id}`, M, y + 4, 270, { size: 8, color: SOFT });

  // Issuer (right)
  const is = doc.issuer;
  const ix = 330;
  const iw = RIGHT - ix;
  let iy = 100;
  cell(pdf, is.name, ix, iy, iw, { size: 11, bold: true });
  iy += 17;
  if (is.zipcode) {
    cell(pdf, `〒${is.zipcode}`, ix, iy, iw, { size: 8.5 });
    iy += 12;
  }
  cell(pdf, is.address, ix, iy, iw, { size: 8.5 });
  iy += 12;
  const contact = [is.tel && `TEL ${is.tel}`, is.fax && `FAX ${is.fax}`].filter(Boolean).join('　');
  if (contact) {
    cell(pdf, contact, ix, iy, iw, { size: 8.5 });
    iy += 12;
  }
  if (is.email) {
    cell(pdf, is.email, ix, iy, iw, { size: 8.5 });
    iy += 12;
  }
  cell(pdf, `登録番号 ${is.registrationNumber}`, ix, iy + 2, iw, { size: 9, bold: true });

  // Period and amounts
  cell(pdf, '下記のとおりご請求申し上げます。', M, 222, 300, { size: 9.5 });
  const closing = doc.closingDate ? `（${dayJa(doc.closingDate)}締め）` : '';
  cell(pdf, `対象期間 ${periodText(doc)}${closing}`, M, 236, CONTENT, { size: 9 });
  const amounts: [string, number][] = [
    ['前回請求額', doc.prevTotal], ['入金額', doc.paid], ['繰越額', doc.carry], ['今回売上額（税抜）', doc.salesNet], ['消費税', doc.tax], ['今回請求額', doc.total],
  ];
  const w = CONTENT / amounts.length;
  amounts.forEach(([label, value], i) => {
    const x = M + w * i;
    const last = i === amounts.length - 1;
    box(pdf, x, 252, w, HEAD, last ? '#d6d6d6' : GRAY);
    cell(pdf, label, x + 2, 255.5, w - 4, { size: 8, bold: true, align: 'center' });
    box(pdf, x, 252 + HEAD, w, 26);
    cell(pdf, money(value), x + 4, 252 + HEAD + (last ? 6 : 7.5), w - 8, { size: last ? 12 : 10, bold: last, align: 'right' });
  });
  cell(pdf, `お支払期限（入金予定日） ${doc.dueDate ? dayJa(doc.dueDate) : '—'}`, M, 300, CONTENT, { size: 10, bold: true });

  // Per-rate totals (適格請求書: the 税抜 amount and the tax of each rate)
  const top = 318;
  const rw = [170, 115, 115, CONTENT - 400];
  const rx = rw.map((_, i) => M + rw.slice(0, i).reduce((s, v) => s + v, 0));
  ['税率区分', '対象額（税抜）', '消費税額', '税込金額'].forEach((label, i) => {
    box(pdf, rx[i], top, rw[i], HEAD, GRAY);
    cell(pdf, label, rx[i] + 3, top + 3.5, rw[i] - 6, { size: 8, bold: true, align: 'center' });
  });
  const rates = doc.rates.length ? doc.rates : [{ key: '-', label: '—', rate: 0, net: 0, tax: 0, total: 0 }];
  rates.forEach((rate, i) => {
    const y2 = top + HEAD + ROW * i;
    const values = [`${rate.label}${rate.key === '8' ? ' ※' : ''}`, money(rate.net), money(rate.tax), money(rate.total)];
    values.forEach((value, c) => {
      box(pdf, rx[c], y2, rw[c], ROW);
      cell(pdf, value, rx[c] + 4, y2 + 3.5, rw[c] - 8, { size: 8.5, align: c === 0 ? 'left' : 'right' });
    });
  });
}

function continuationHeading(pdf: Pdf, doc: InvoiceDocument): void {
  cell(pdf, `請求書（続き）　請求番号 ${doc.number}`, PAGE.margin, PAGE.margin, 300, { size: 10, bold: true });
  cell(pdf, `${doc.recipient.name}　${doc.recipient.honorific}`, RIGHT - 250, PAGE.margin + 1, 250, { size: 9, align: 'right' });
}

function footer(pdf: Pdf, doc: InvoiceDocument, page: number, pages: number): void {
  const y = PAGE.height - PAGE.margin - 8;
  cell(pdf, `${doc.issuer.name}　請求番号 ${doc.number}`, PAGE.margin, y, 300, { size: 7.5, color: SOFT });
  cell(pdf, `${page} / ${pages}`, RIGHT - 80, y, 80, { size: 8, align: 'right', color: SOFT });
}

/**
 * Draws one invoice on new pages of `pdf`; answers the pages it took.
 * @example drawInvoice(pdf, doc) // 1
 */
export function drawInvoice(pdf: Pdf, doc: InvoiceDocument): number {
  const pages = layoutInvoice(doc);
  pages.forEach((page, i) => {
    pdf.addPage({ size: 'A4', margin: 0 });
    if (i === 0) firstPageHeading(pdf, doc);
    else continuationHeading(pdf, doc);
    if (page.tableTop !== undefined) tableHead(pdf, page.tableTop, doc.taxIncluded);
    for (const row of page.rows) tableRow(pdf, row);
    for (const tail of page.tails) tailBlock(pdf, doc, tail);
    footer(pdf, doc, i + 1, pages.length);
  });
  return pages.length;
}

/** The bytes of a document once it ends. */
function bytesOf(pdf: Pdf): Promise<Buffer> {
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    pdf.on('data', (chunk: Buffer) => chunks.push(chunk));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
}

/**
 * One invoice as a PDF file.
 * @example const bytes = await invoicePdf(doc); bytes.subarray(0, 5).toString() // '%PDF-'
 */
export async function invoicePdf(doc: InvoiceDocument): Promise<{ bytes: Buffer; pages: number }> {
  const pdf = newPdf(`請求書 ${doc.number}`, doc.issuer.name);
  const done = bytesOf(pdf);
  const pages = drawInvoice(pdf, doc);
  pdf.end();
  return { bytes: await done, pages };
}

/** A merged PDF being written: invoices are added one after the other; `end` closes it once its bytes are out. */
export interface InvoiceWriter {
  add(doc: InvoiceDocument): number;
  end(): Promise<void>;
}

/**
 * A merged PDF of many invoices streamed to `out` (a file): each invoice starts on a new page; pdfkit writes a page
 * out when the next one begins, so memory stays flat.
 * @example const w = writeInvoices(createWriteStream(path), '請求書 202605', 'アクア'); w.add(doc); await w.end()
 */
export function writeInvoices(out: Writable, title: string, author: string): InvoiceWriter {
  // pdfkit caches the layout of every distinct text a document draws: over a thousand invoices (names, numbers,
  // amounts) that cache would grow with the document, so the merged one does without.
  const pdf = newPdf(title, author, false);
  const finished = new Promise<void>((resolve, reject) => {
    out.on('finish', resolve);
    out.on('error', reject);
    pdf.on('error', reject);
  });
  pdf.pipe(out);
  let pages = 0;
  return {
    add(doc) {
      const n = drawInvoice(pdf, doc);
      pages += n;
      return n;
    },
    async end() {
      // A PDF needs a page: an empty closing still answers a valid file.
      if (pages === 0) pdf.addPage({ size: 'A4', margin: 0 });
      pdf.end();
      await finished;
    },
  };
}
