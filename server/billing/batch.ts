/**
 * 請求書の一括発行 (`billing_pdf_batch`, a job): every invoice of a closing (締日グループ × 締め年月) as ONE merged
 * PDF and as a ZIP of one PDF per customer, written into the file store (server/files) and answered by
 * `billing_pdf_batch_file` from any server for a day.
 *
 * Memory stays flat: the invoices are read a chunk at a time (`invoiceDocuments`), each is drawn into the merged
 * PDF (pdfkit writes a page out when the next begins) and rendered on its own into the ZIP (stored, as PDFs are
 * compressed already), both streamed to their files with backpressure. Nothing is held for the whole closing but
 * the invoices' ids. The ZIP's entries are the archived versions' bytes (server/billing/archive.ts): an invoice that
 * left before goes out as stored, one leaving for the first time is rendered once and stored as its version. The
 * reads run outside any write transaction (a SQLite write lock held for the whole run would stop every other write);
 * once every file is complete, one short transaction records the new versions, counts the invoices as issued
 * (`recordIssues`) and records each delivery; a batch whose invoices were restored away, or issued elsewhere,
 * meanwhile fails instead. A customer of デジタルインボイス also gets its JP PINT XML in the ZIP, beside the PDF: the
 * version's stored XML, or the one made and stored now.
 */
import { once } from 'node:events';
import { createReadStream, existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import { Zip, ZipPassThrough } from 'fflate';
import type { Kysely } from 'kysely';
import { BILLING_MESSAGES, invoiceFileName } from '../../lib/billing/messages';
import { closingLabel } from '../../lib/closing/period';
import { chunksOf } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { completeFiles, fileBytes, FileWriter, jobFile, removeJobFiles, storeStream, type WrittenFile } from '../files';
import { ApiError } from '../http/api-error';
import { assertReconciles, companySettings, invoiceDocuments, type InvoiceDocument } from './invoice-document';
import { writeInvoices } from './invoice-pdf';
import {
  liveVersions, pintXml, recordDeliveries, recordPint, recordVersions, renderVersions, storePintFile, storeVersionFile, type ArchiveRow, type WrittenVersion,
} from './archive';
import { japanDay } from '../../lib/day';
import { recordIssues, type Issued } from './issue';
import { japanToday, nowMs } from '../http/clock';

/** Invoices read and drawn per round (one round's documents are in memory at once). */
const CHUNK = 50;
/** How long the files of a batch are kept. */
const KEEP_MS = 24 * 60 * 60 * 1000;

export type BatchFormat = 'pdf' | 'zip';

/** The store's kind of a batch job's file (server/files: found by the job's id and this kind). */
export const batchFileKind = (format: BatchFormat): string => `billing-${format}`;

/**
 * Batch files an older server kept on disk (`{DATA_DIR}/billing-pdf/job-{id}.pdf|zip`) moved into the file store at
 * start (server/disk-files.ts), keeping their expiry (a day from when they were written); parts of a batch that never
 * ended and expired files are only removed, and so is the folder. Answers how many files were stored.
 * @example await moveBatchFilesIn(db, config.dataDir)
 */
export async function moveBatchFilesIn(db: Kysely<Database>, dataDir: string): Promise<number> {
  const dir = join(dataDir, 'billing-pdf');
  if (!existsSync(dir)) return 0;
  let stored = 0;
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    const found = /^job-(\d+)\.(pdf|zip)$/.exec(name);
    const keepMs = statSync(path).mtimeMs + KEEP_MS - nowMs();
    if (found && keepMs > 0) {
      const jobId = Number(found[1]);
      const kind = batchFileKind(found[2] as BatchFormat);
      if (!(await jobFile(db, jobId, kind))) {
        await storeStream(db, createReadStream(path), { kind, name, jobId, keepMs });
        stored += 1;
      }
    }
    rmSync(path, { force: true });
  }
  rmSync(dir, { recursive: true, force: true });
  return stored;
}

/** The closing's invoices, in number order. */
export async function closingInvoiceIds(db: Kysely<Database>, simeGp: string, simeYm: string): Promise<number[]> {
  const rows = await db.selectFrom('billing').select('bl_id').where('deleted', '=', 0).where('bl_sime_gp', '=', simeGp).where('bl_sime_ym', '=', simeYm)
    .orderBy('bl_number').orderBy('bl_id').execute();
  return rows.map((r) => r.bl_id);
}

export interface BatchResult {
  sime_gp: string;
  sime_ym: string;
  invoices: number;
  pages: number;
  /** Invoices that had left before (their stored version went out again). */
  reissued: number;
  /** デジタルインボイス customers' invoices whose JP PINT XML is in the ZIP beside the PDF. */
  pint: number;
  pdf_bytes: number;
  zip_bytes: number;
  pdf_name: string;
  zip_name: string;
}

/** The download names of a batch's files: 「請求書_2026年5月_20日締め.pdf」. */
export const batchFileName = (simeGp: string, simeYm: string, format: BatchFormat): string =>
  `請求書_${closingLabel(simeGp, simeYm).replace(' ', '_')}.${format}`;

/** Writes to a stream, waiting while its buffer is full. */
async function put(out: Writable, chunk: Uint8Array): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

/** A ZIP being streamed to a file, one stored entry at a time. */
function zipWriter(out: Writable): { add(name: string, bytes: Buffer): Promise<void>; end(): Promise<void> } {
  let failure: Error | undefined;
  const pending: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) failure = error;
    else pending.push(chunk);
  });
  const flush = async () => {
    if (failure) throw failure;
    while (pending.length) await put(out, pending.shift()!);
  };
  return {
    async add(name, bytes) {
      const entry = new ZipPassThrough(name);
      zip.add(entry);
      entry.push(bytes, true);
      await flush();
    },
    async end() {
      zip.end();
      await flush();
      out.end();
      await once(out, 'finish');
    },
  };
}

/** The customers of these invoices whose invoices go out as digital invoices (請求書の送付方法 デジタルインボイス). */
async function digitalCustomers(db: Kysely<Database>, docs: readonly InvoiceDocument[]): Promise<Set<number>> {
  const ids = [...new Set(docs.map((d) => d.recipient.cl_id))];
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom('client').select('cl_id').where('cl_id', 'in', ids).where('cl_invoice_delivery', '=', '4').execute();
  return new Set(rows.map((r) => r.cl_id));
}

export interface BatchRun {
  db: Kysely<Database>;
  jobId: number;
  userId: number;
  call: string;
  simeGp: string;
  simeYm: string;
  progress(done: number, total: number): Promise<void>;
  /** Our company's name when the settings have none (COMPANY_NAME; the merged PDF's author). */
  fallbackName: string;
}

/**
 * Runs a batch: both files, written into the file store as they are drawn, then — in one transaction — the invoices
 * counted as issued and the files made readable. Refuses (the job fails with the message) an invoice that does not
 * reconcile, naming it; a cancel or failure removes the files begun.
 * @example await batchPdf({ db, jobId: 7, userId: 1, call: 'billing_pdf_batch', simeGp: '20', simeYm: '202605', progress, fallbackName: '' })
 */
export async function batchPdf(run: BatchRun): Promise<BatchResult> {
  const { db, jobId, simeGp, simeYm } = run;
  const ids = await closingInvoiceIds(db, simeGp, simeYm);
  if (ids.length === 0) throw new ApiError(400, BILLING_MESSAGES.noInvoices(closingLabel(simeGp, simeYm)));
  const fileOf = (format: BatchFormat) =>
    new FileWriter(db, { kind: batchFileKind(format), name: batchFileName(simeGp, simeYm, format), userId: run.userId, jobId, keepMs: KEEP_MS, deferComplete: true });
  const today = japanToday();
  const actor = { userId: run.userId, call: run.call, jobId };
  const issued: Issued[] = [];
  /**
   * Every invoice's version: stored before (`stored`), or rendered now and recorded at the end; for a customer of
   * デジタルインボイス also its JP PINT XML (`pint`: written now when the version had none, `xml`: it goes out).
   */
  const leaving: { ar_id?: number; stored?: ArchiveRow; rendered?: WrittenVersion['version']; file?: WrittenFile; pint?: WrittenFile; xml?: boolean }[] = [];
  let pages = 0;
  let sizes: { pdf: number; zip: number };
  const pdfOut = fileOf('pdf');
  const zipOut = fileOf('zip');
  try {
    const author = (await companySettings(db, run.fallbackName)).name;
    const merged = writeInvoices(pdfOut, `請求書 ${closingLabel(simeGp, simeYm)}`, author);
    const zip = zipWriter(zipOut);
    const names = new Set<string>();
    await run.progress(0, ids.length);
    for (const chunk of chunksOf(ids, CHUNK)) {
      const docs: InvoiceDocument[] = await invoiceDocuments(db, chunk, { today });
      if (docs.length !== chunk.length) throw new ApiError(409, BILLING_MESSAGES.batchRestored);
      const live = await liveVersions(db, chunk);
      const digital = await digitalCustomers(db, docs);
      // The invoices leaving for the first time, rendered once each (their versions: the ZIP's entries and what is stored).
      const fresh = new Map((await renderVersions(db, docs.filter((d) => !live.has(d.bl_id)))).map((r) => [r.doc.bl_id, r]));
      for (const doc of docs) {
        assertReconciles(doc);
        const stored = live.get(doc.bl_id);
        // The ZIP's entry is the archived version's bytes: those stored by an earlier delivery, else the ones stored now.
        let bytes: Buffer;
        let drawn: InvoiceDocument;
        let xml: Buffer | undefined;
        if (stored) {
          bytes = await fileBytes(db, Number(stored.ar_sf_id));
          drawn = stored.ar_replaces_number ? { ...doc, corrects: stored.ar_replaces_number } : doc;
          const entry: (typeof leaving)[number] = { ar_id: stored.ar_id, stored };
          if (digital.has(doc.recipient.cl_id)) {
            entry.xml = true;
            if (stored.ar_pint_sf_id) xml = await fileBytes(db, stored.ar_pint_sf_id);
            else {
              xml = await pintXml(db, drawn, japanDay(stored.created));
              entry.pint = await storePintFile(db, drawn, xml, actor, true);
            }
          }
          leaving.push(entry);
        } else {
          const rendered = fresh.get(doc.bl_id)!;
          // Kept until recorded: what the row needs, not the bytes (memory stays flat).
          const entry: (typeof leaving)[number] = { rendered: { doc: rendered.doc, pages: rendered.pages, replaces: rendered.replaces }, file: await storeVersionFile(db, rendered, actor, true) };
          if (digital.has(doc.recipient.cl_id)) {
            xml = await pintXml(db, rendered.doc, today);
            entry.pint = await storePintFile(db, rendered.doc, xml, actor, true);
            entry.xml = true;
          }
          leaving.push(entry);
          bytes = rendered.bytes;
          drawn = rendered.doc;
        }
        // The merged PDF is a printing aid drawn from the same document, not an archived one.
        pages += merged.add(drawn);
        // pdfkit's merged stream gets its bytes out before the next invoice is drawn.
        if (pdfOut.writableNeedDrain) await once(pdfOut, 'drain');
        let name = invoiceFileName(doc.number, doc.recipient.name);
        for (let n = 2; names.has(name); n += 1) name = name.replace(/(?:_\d+)?\.pdf$/, `_${n}.pdf`);
        names.add(name);
        await zip.add(name, bytes);
        // A digital-invoice customer's JP PINT XML beside its PDF (the version's second stored file).
        if (xml) await zip.add(name.replace(/\.pdf$/, '.xml'), xml);
        issued.push({ bl_id: doc.bl_id, printCount: doc.printCount, reissue: doc.printCount > 0 });
      }
      await run.progress(issued.length, ids.length);
    }
    await merged.end();
    await zip.end();
    const [pdf, zipped] = await Promise.all([pdfOut.done(), zipOut.done()]);
    sizes = { pdf: pdf.size, zip: zipped.size };
    await db.transaction().execute(async (trx) => {
      if ((await recordIssues(trx, actor, issued)) !== issued.length) throw new ApiError(409, BILLING_MESSAGES.batchRestored);
      const fresh = leaving.filter((l) => l.rendered);
      // Another delivery stored a version of one of them meanwhile: this batch's bytes are not that version.
      if ((await liveVersions(trx, fresh.map((l) => l.rendered!.doc.bl_id))).size > 0) throw new ApiError(409, BILLING_MESSAGES.batchRaced);
      const versionIds = await recordVersions(trx, actor, fresh.map((l) => ({ version: l.rendered!, file: l.file!, pint: l.pint })));
      fresh.forEach((l, i) => {
        l.ar_id = versionIds[i];
      });
      const pinted = leaving.filter((l) => l.stored && l.pint);
      const now = await liveVersions(trx, pinted.map((l) => Number(l.stored!.ar_bl_id)));
      for (const l of pinted) {
        const current = now.get(Number(l.stored!.ar_bl_id));
        if (!current || current.ar_pint_sf_id) throw new ApiError(409, BILLING_MESSAGES.batchRaced);
        await recordPint(trx, actor, current, l.pint!);
      }
      await completeFiles(trx, [pdf.id, zipped.id, ...fresh.map((l) => l.file!.id), ...leaving.flatMap((l) => (l.pint ? [l.pint.id] : []))]);
      await recordDeliveries(trx, actor, [
        ...leaving.map((l) => ({ ar_id: l.ar_id!, how: 'batch' as const })),
        ...leaving.filter((l) => l.xml).map((l) => ({ ar_id: l.ar_id!, how: 'pint' as const })),
      ]);
    });
  } catch (error) {
    await Promise.all([pdfOut.abort(), zipOut.abort()]);
    await removeJobFiles(db, jobId);
    throw error;
  }
  return {
    sime_gp: simeGp, sime_ym: simeYm, invoices: issued.length, pages, pint: leaving.filter((l) => l.xml).length, reissued: issued.filter((i) => i.reissue).length,
    pdf_bytes: sizes.pdf, zip_bytes: sizes.zip,
    pdf_name: batchFileName(simeGp, simeYm, 'pdf'), zip_name: batchFileName(simeGp, simeYm, 'zip'),
  };
}
