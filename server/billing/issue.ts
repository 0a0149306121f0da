/**
 * Issuing invoices: every PDF handed out (printed, downloaded, mailed) counts. `bl_print_count` is bumped and a
 * reprint (the invoice was issued before) stamps `bl_reissued` with the time, in the transaction of the call that
 * issues it, with one audit row per invoice. Like the 売掛残高, the count is bookkeeping the invoice's own rules do
 * not cover (the `billing` resource is read-only), so it is one UPDATE here rather than a save.
 */
import { sql, type Transaction } from 'kysely';
import { writeAudits, type AuditEntry } from '../audit/audit-log';
import { chunksOf } from '../db/bulk-write';
import type { Database } from '../db/schema';
import { nowIso } from '../http/clock';

/** An invoice as it was issued: its count before and whether it was marked 再発行. */
export interface Issued {
  bl_id: number;
  printCount: number;
  reissue: boolean;
}

export interface IssueActor {
  userId: number;
  call: string;
  jobId?: number;
  /** What else the audit row records (the mail's recipient …). */
  extra?: AuditEntry['changes'];
}

/**
 * Counts the invoices as issued once more; answers how many live invoices were counted (an invoice restored away
 * meanwhile is not).
 * @example await recordIssues(trx, { userId: 1, call: 'billing_pdf' }, [{ bl_id: 12, printCount: 0, reissue: false }])
 */
export async function recordIssues(trx: Transaction<Database>, actor: IssueActor, issued: readonly Issued[], at: string = nowIso()): Promise<number> {
  let counted = 0;
  for (const reissue of [false, true]) {
    const ids = issued.filter((i) => i.reissue === reissue).map((i) => i.bl_id);
    for (const chunk of chunksOf(ids, 1000)) {
      const result = await trx.updateTable('billing')
        .set(reissue ? { bl_print_count: sql`COALESCE(bl_print_count, 0) + 1`, bl_reissued: at } : { bl_print_count: sql`COALESCE(bl_print_count, 0) + 1` })
        .where('bl_id', 'in', chunk).where('deleted', '=', 0)
        .executeTakeFirst();
      counted += Number(result.numUpdatedRows);
    }
  }
  await writeAudits(trx, issued.map((i) => ({
    userId: actor.userId, call: actor.call, table: 'billing', recordId: i.bl_id, at, jobId: actor.jobId,
    changes: { ...actor.extra, bl_print_count: [i.printCount, i.printCount + 1], ...(i.reissue ? { bl_reissued: [null, at] } : {}) },
  })));
  return counted;
}
