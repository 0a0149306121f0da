/**
 * 顧客: the chain of 請求親顧客 never loops. A save giving a customer a parent whose chain leads back to the
 * customer is refused, naming the loop; saves changing parents take turns (`serialize`), so two saves that
 * would close a loop together cannot both pass. A changed 開始売掛残高 re-computes the 売掛残高
 * (server/sales/ledger.ts) in the save's transaction, once for the whole batch. 入金予定 before the customer's own
 * closing date (当月 on a day before the 締日) is refused naming both (`paymentTermsProblem`).
 */
import { paymentTermsProblem } from '../../lib/closing/period';
import { parentChain } from './billing-chain';
import { serialize } from '../db/concurrency';
import { badRequest } from '../http/api-error';
import { recomputeReceivables } from '../sales';
import type { ResourcePolicy } from '../resources';

/** The columns of the 入金予定 rule (lib/closing/period.ts `paymentTermsProblem`). */
const TERMS = ['cl_sime_gp', 'cl_collect_cycle', 'cl_collect_day'] as const;

export const clientPolicy: ResourcePolicy = {
  async beforeSave({ trx, id, current, columns }) {
    // 入金予定 before the closing date: refused when the save sets or changes the terms (a customer saved before the
    // rule keeps its other edits; the list's filter 「入金予定: 締日より前」 finds it).
    if (TERMS.some((c) => columns[c] !== undefined && columns[c] !== current?.[c])) {
      const [gp, cycle, day] = TERMS.map((c) => (columns[c] !== undefined ? columns[c] : current?.[c]));
      const problem = paymentTermsProblem(gp, cycle, day);
      if (problem) throw badRequest(problem, { fields: { collect_day: problem } });
    }
    const parent = columns.cl_parent_id;
    if (id === undefined || parent === undefined || parent === null || (current && current.cl_parent_id === parent)) return;
    await serialize(trx, 'client_parent');
    const chain = await parentChain(trx, Number(parent));
    const back = chain.findIndex((link) => link.id === id);
    if (back < 0) return;
    const self = String(current?.cl_co_name || current?.cl_name || `ID ${id}`);
    const loop = [self, ...chain.slice(0, back + 1).map((link) => link.name)].join(' → ');
    const message = `請求親顧客をこの顧客にすると請求先が循環します（${loop}）。別の顧客を選んでください。`;
    throw badRequest(message, { fields: { parent_id: message } });
  },
  // Set-based after the batch (an import's thousand customers): an `afterSave` would read every saved customer back.
  async afterBatch({ trx, ids, current, written }) {
    const changed = ids.filter((_, k) => {
      const balance = written[k].row.cl_opening_balance;
      const before = current[k];
      return before ? before.cl_opening_balance !== balance : Boolean(balance);
    });
    if (changed.length) await recomputeReceivables(trx, changed);
  },
};
