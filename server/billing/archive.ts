/**
 * The invoice archive (電子帳簿保存法, 電子取引): every invoice that leaves the product — printed, downloaded, in a batch,
 * mailed — is stored ONCE as the exact bytes that left, as a version (`invoice_archive`, lib/resources/archive.ts) with
 * its SHA-256 and its search keys; every later delivery of that version hands out the stored bytes and is recorded
 * (`archive_delivery`). Nothing renders an issued invoice again.
 * - The first delivery of an invoice renders its document (`renderVersions`) and stores it (`storeVersionFile`,
 *   `recordVersions`) in the transaction that records the delivery (`leavingVersion`): two first deliveries take turns
 *   on the invoice's row lock, so the second finds the first's version. A batch stores a chunk's new versions as it
 *   goes and records them all in its last transaction.
 * - Its JP PINT XML (`leavingPint`, or the batch for デジタルインボイス customers) is the version's second stored file.
 * - A 締め戻し marks the closing's issued versions 取消 (`cancelVersions`); the invoice that replaces one after the
 *   closing is made again is a 修正 version naming it (`replaces`, and 「修正」 on the document).
 * - The database refuses any other change and any deletion (migration 0105); the store keeps the files until
 *   `ar_keep_until`, seven years from the closing date.
 */
import type { Kysely, Transaction } from 'kysely';
import { BILLING_MESSAGES, invoiceFileName } from '../../lib/billing/messages';
import { parsePeppolId } from '../../lib/billing/peppol';
import { addDays, addYears, japanDay, jstDayStartIso } from '../../lib/day';
import { archiveResource, type ArchiveDelivery } from '../../lib/resources/archive';
import { chunksOf } from '../db/bulk-write';
import { locking } from '../db/concurrency';
import type { Database, Row } from '../db/schema';
import { ARCHIVE_FILE_KIND, FileWriter, type WrittenFile } from '../files';
import { ApiError, badRequest } from '../http/api-error';
import { japanToday, nowIso, nowMs } from '../http/clock';
import { systemInsert, systemUpdate } from '../resources';
import { assertReconciles, invoiceDocuments, type InvoiceDocument } from './invoice-document';
import { invoicePdf } from './invoice-pdf';
import { pintInvoiceXml } from './pint';

type Db = Kysely<Database>;
export type ArchiveRow = Row<'invoice_archive'>;

/** Years a version is kept from its closing (電子帳簿保存法: 7 years). */
export const KEEP_YEARS = 7;
/** 発行済 / 取消 (lib/resources/archive `ARCHIVE_STATES`). */
export const ISSUED = '1';
export const CANCELLED = '2';

/** Who makes a version leave, through which call (and job). */
export interface ArchiveActor {
  userId: number;
  call: string;
  jobId?: number;
}

/** The last day a version of a closing is kept: seven years after the closing date. */
export const keepUntilOf = (closingDate: string): string => addYears(closingDate, KEEP_YEARS);

/**
 * The live (発行済) version of each invoice that has one, by invoice id.
 * @example (await liveVersions(db, [12])).get(12)?.ar_sf_id
 */
export async function liveVersions(db: Db, blIds: readonly number[]): Promise<Map<number, ArchiveRow>> {
  const out = new Map<number, ArchiveRow>();
  for (const chunk of chunksOf([...blIds], 1000)) {
    const rows = await db.selectFrom('invoice_archive').selectAll().where('ar_bl_id', 'in', chunk).where('ar_state', '=', ISSUED).execute();
    for (const row of rows) out.set(Number(row.ar_bl_id), row);
  }
  return out;
}

/**
 * The cancelled version each invoice replaces, by invoice id: its customer's latest 取消 version of the same closing
 * that no version replaces yet. One query for any number of invoices.
 */
async function replacedVersions(db: Db, docs: readonly InvoiceDocument[]): Promise<Map<number, ArchiveRow>> {
  const out = new Map<number, ArchiveRow>();
  if (docs.length === 0) return out;
  const rows = await db.selectFrom('invoice_archive as a').selectAll('a')
    .where('a.ar_cl_id', 'in', [...new Set(docs.map((d) => d.recipient.cl_id))]).where('a.ar_state', '=', CANCELLED)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('invoice_archive as b').select('b.ar_id').whereRef('b.ar_replaces', '=', 'a.ar_id'))))
    .orderBy('a.ar_id', 'desc').execute();
  for (const doc of docs) {
    const found = rows.find((r) => r.ar_cl_id === doc.recipient.cl_id && r.ar_sime_gp === doc.simeGp && r.ar_sime_ym === doc.simeYm);
    if (found) out.set(doc.bl_id, found);
  }
  return out;
}

/** A document rendered for its first delivery: its bytes, and the version it replaces (a 修正インボイス). */
export interface RenderedVersion {
  doc: InvoiceDocument;
  bytes: Buffer;
  pages: number;
  replaces: ArchiveRow | undefined;
}

/**
 * Renders invoices' documents as their new versions, in order: each marked 修正 and naming the invoice it corrects when
 * it replaces a cancelled version.
 */
export async function renderVersions(db: Db, docs: readonly InvoiceDocument[]): Promise<RenderedVersion[]> {
  const replaced = await replacedVersions(db, docs);
  const out: RenderedVersion[] = [];
  for (const doc of docs) {
    const replaces = replaced.get(doc.bl_id);
    const marked: InvoiceDocument = replaces ? { ...doc, corrects: replaces.ar_number ?? '' } : doc;
    const { bytes, pages } = await invoicePdf(marked);
    out.push({ doc: marked, bytes, pages, replaces });
  }
  return out;
}

/** Writes one of a version's files into the store, kept through the version's last day (Japan time). */
async function storeArchived(db: Db, doc: InvoiceDocument, name: string, bytes: Buffer, actor: ArchiveActor, deferComplete: boolean): Promise<WrittenFile> {
  const expires = Date.parse(jstDayStartIso(addDays(keepUntilOf(doc.closingDate), 1)));
  const writer = new FileWriter(db, {
    kind: ARCHIVE_FILE_KIND, name, userId: actor.userId, jobId: actor.jobId ?? null, keepMs: Math.max(expires - nowMs(), 60_000), deferComplete,
  });
  writer.end(bytes);
  return writer.done();
}

/**
 * Writes a rendered version's bytes into the file store, kept until the version's last day (`deferComplete`: a batch
 * completes its files in the transaction that records them). Answers the written file.
 */
export const storeVersionFile = (db: Db, version: RenderedVersion, actor: ArchiveActor, deferComplete = false): Promise<WrittenFile> =>
  storeArchived(db, version.doc, invoiceFileName(version.doc.number, version.doc.recipient.name), version.bytes, actor, deferComplete);

/** The file name of a version's digital invoice: the PDF's with `.xml`. */
export const pintFileName = (doc: InvoiceDocument): string => invoiceFileName(doc.number, doc.recipient.name).replace(/\.pdf$/, '.xml');

/**
 * A version's JP PINT XML (the document as it was issued: `issuedOn`, and 修正 naming what it corrects) for the
 * customer's Peppol address; 400 naming the customer when it has none.
 */
export async function pintXml(db: Db, doc: InvoiceDocument, issuedOn: string): Promise<Buffer> {
  const client = await db.selectFrom('client').select('cl_peppol_id').where('cl_id', '=', doc.recipient.cl_id).executeTakeFirst();
  const buyer = parsePeppolId(client?.cl_peppol_id);
  if (!buyer) throw badRequest(BILLING_MESSAGES.noPeppolId(doc.recipient.name));
  return Buffer.from(pintInvoiceXml(doc, { issueDate: issuedOn, buyerEndpoint: buyer }), 'utf8');
}

/** Stores a version's JP PINT XML as its second file (`deferComplete` as `storeVersionFile`). */
export const storePintFile = (db: Db, doc: InvoiceDocument, bytes: Buffer, actor: ArchiveActor, deferComplete = false): Promise<WrittenFile> =>
  storeArchived(db, doc, pintFileName(doc), bytes, actor, deferComplete);

/** Names a stored PINT file on its version (once: the database refuses a second). */
export async function recordPint(trx: Transaction<Database>, actor: ArchiveActor, version: ArchiveRow, file: WrittenFile): Promise<void> {
  await systemUpdate(trx, { ...actor, system: true }, archiveResource, [{ id: version.ar_id, before: version, set: { ar_pint_sf_id: file.id } }], { modified: 'keep' });
}

/**
 * The JP PINT XML of one invoice that leaves now as a digital invoice, in the caller's transaction: its version (stored
 * first if it never left), then the version's stored XML, or — the first time — the XML made from the same document
 * and stored beside the PDF. Answers the version (with its XML's file id) and the XML's stored file row.
 */
export async function leavingPint(trx: Transaction<Database>, actor: ArchiveActor, id: number): Promise<LeavingVersion> {
  const leaving = await leavingVersion(trx, actor, id);
  if (leaving.version.ar_pint_sf_id) return leaving;
  const [doc] = await invoiceDocuments(trx, [id], { today: japanDay(leaving.version.created) });
  const issued: InvoiceDocument = leaving.version.ar_replaces_number ? { ...doc, corrects: leaving.version.ar_replaces_number } : doc;
  const file = await storePintFile(trx, issued, await pintXml(trx, issued, japanDay(leaving.version.created)), actor);
  await recordPint(trx, actor, leaving.version, file);
  return { ...leaving, version: { ...leaving.version, ar_pint_sf_id: file.id } };
}

/** A rendered version whose file (and JP PINT XML) is written, to record. */
export interface WrittenVersion {
  version: Pick<RenderedVersion, 'doc' | 'pages' | 'replaces'>;
  file: WrittenFile;
  pint?: WrittenFile;
}

/**
 * Records rendered versions whose files are written (in the caller's transaction): their archive rows, audited, with
 * each customer's 取引先 keys as they are now. Answers the new ids in order.
 */
export async function recordVersions(trx: Transaction<Database>, actor: ArchiveActor, written: readonly WrittenVersion[]): Promise<number[]> {
  if (written.length === 0) return [];
  const clients = new Map<number, { cl_code: string; cl_co_name_kana: string; cl_name_kana: string }>();
  for (const chunk of chunksOf([...new Set(written.map((w) => w.version.doc.recipient.cl_id))], 1000)) {
    for (const c of await trx.selectFrom('client').select(['cl_id', 'cl_code', 'cl_co_name_kana', 'cl_name_kana']).where('cl_id', 'in', chunk).execute()) clients.set(c.cl_id, c);
  }
  return systemInsert(trx, { ...actor, system: true }, archiveResource, written.map(({ version: { doc, replaces, pages }, file, pint }) => {
    const client = clients.get(doc.recipient.cl_id);
    return {
      number: doc.number, version: replaces ? (replaces.ar_version ?? 1) + 1 : 1, state: ISSUED,
      date: doc.closingDate, amount: doc.total,
      cl_id: doc.recipient.cl_id, cl_code: client?.cl_code ?? '', cl_name: doc.recipient.name,
      cl_kana: client?.cl_co_name_kana || client?.cl_name_kana || '',
      sime_gp: doc.simeGp, sime_ym: doc.simeYm, bl_id: doc.bl_id,
      replaces: replaces?.ar_id ?? '', replaces_number: replaces?.ar_number ?? '',
      file_name: invoiceFileName(doc.number, doc.recipient.name), sf_id: file.id, size: file.size, pages, sha256: file.sha256,
      usr_id: actor.userId, keep_until: keepUntilOf(doc.closingDate), pint_sf_id: pint?.id ?? '',
    };
  }));
}

/** An invoice's version about to leave: the stored row, whether it was stored before, and the invoice's issue count. */
export interface LeavingVersion {
  version: ArchiveRow;
  /** Stored by an earlier delivery (this one hands out the same bytes again). */
  again: boolean;
  /** Times the invoice left before (bl_print_count). */
  printCount: number;
}

/**
 * The version of one invoice that leaves now, in the caller's transaction, under the invoice's row lock (two first
 * deliveries take turns, so the second finds the first's version): its live version, or — the first time — its
 * document (which must reconcile to the yen) rendered and stored as a new version. 404 for an invoice that is gone.
 * @example const { version } = await leavingVersion(trx, actor, 12)
 */
export async function leavingVersion(trx: Transaction<Database>, actor: ArchiveActor, id: number): Promise<LeavingVersion> {
  const billing = await locking(trx, trx.selectFrom('billing').select(['bl_id', 'bl_print_count']).where('bl_id', '=', id).where('deleted', '=', 0), 'update').executeTakeFirst();
  if (!billing) throw new ApiError(404, BILLING_MESSAGES.notFound);
  const printCount = billing.bl_print_count ?? 0;
  const live = (await liveVersions(trx, [id])).get(id);
  if (live) return { version: live, again: true, printCount };
  const [doc] = await invoiceDocuments(trx, [id], { today: japanToday() });
  assertReconciles(doc);
  const [rendered] = await renderVersions(trx, [doc]);
  const file = await storeVersionFile(trx, rendered, actor);
  const [versionId] = await recordVersions(trx, actor, [{ version: rendered, file }]);
  return { version: await trx.selectFrom('invoice_archive').selectAll().where('ar_id', '=', versionId).executeTakeFirstOrThrow(), again: false, printCount };
}

/**
 * Records deliveries of versions (in the caller's transaction): how each left, to whom, by whom.
 * @example await recordDeliveries(trx, actor, [{ ar_id: 3, how: 'mail', to: 'info@example.jp' }])
 */
export async function recordDeliveries(trx: Transaction<Database>, actor: { userId: number | null; jobId?: number }, deliveries: readonly { ar_id: number; how: ArchiveDelivery; to?: string }[], at: string = nowIso()): Promise<void> {
  for (const chunk of chunksOf([...deliveries], 500)) {
    await trx.insertInto('archive_delivery').values(chunk.map((d) => ({
      ad_ar_id: d.ar_id, ad_how: d.how, ad_to: d.to ?? '', ad_usr_id: actor.userId, ad_job_id: actor.jobId ?? null, created: at,
    }))).execute();
  }
}

/**
 * Marks a closing's issued versions 取消 (a 締め戻し, in its transaction): who, when and why. Answers how many.
 * @example await cancelVersions(trx, actor, [12, 13], '金額訂正のため締め戻し')
 */
export async function cancelVersions(trx: Transaction<Database>, actor: ArchiveActor, blIds: readonly number[], reason: string): Promise<number> {
  const live = [...(await liveVersions(trx, blIds)).values()];
  if (live.length === 0) return 0;
  const at = nowIso();
  await systemUpdate(trx, { ...actor, system: true }, archiveResource, live.map((row) => ({
    id: row.ar_id, before: row, set: { ar_state: CANCELLED, ar_cancelled_at: at, ar_cancelled_by: actor.userId, ar_cancel_reason: reason },
  })), { modified: 'stamp' });
  return live.length;
}
