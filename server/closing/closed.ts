/**
 * Closed periods (issue 13): once a group's month is closed, the slips and payments of its billing customers dated up
 * to that closing date are closed too — a new one there, a change of one or its deletion is refused with a message
 * naming the closing. The one helper the sales and payment policies both ask (in the write's transaction); closing
 * itself (server/closing/run.ts) takes the same named lock exclusively, so a slip saved while a closing runs waits
 * for it and then sees it (PostgreSQL; SQLite runs write transactions one at a time anyway).
 *
 * A closing covers everything of its group up to its closing date (a group's closings go month after month, its
 * first one takes whatever was not billed before), so a day is closed for a customer when it is on or before the
 * latest closing date of its billing customer's group (the top of the 請求親顧客 chain, server/clients/billing-chain.ts).
 */
import type { Transaction } from 'kysely';
import { closingLabel } from '../../lib/closing/period';
import { billingGroupsOf } from '../clients/billing-chain';
import { rowsByIds } from '../db/bulk-write';
import { serialize } from '../db/concurrency';
import type { Database } from '../db/schema';
import { badRequest, type ApiError } from '../http/api-error';

/** The named lock of closing: shared by slip and payment writes, exclusive for a closing and its restore. */
export const CLOSING_LOCK = 'closing';

/** What a closed-period refusal names: the record and its date field. */
export interface ClosedSubject {
  /** 売上伝票, 入金伝票 */
  what: string;
  /** The date field's name and label (the form marks it). */
  field: string;
  label: string;
}

/** The closed periods of a write's customers, read once for a batch. */
export interface ClosedPeriods {
  /** The refusal of a record of a customer dated on a day, or undefined when that day is open. */
  refusal(clientId: unknown, date: unknown, subject: ClosedSubject): ApiError | undefined;
}

const OPEN: ClosedPeriods = { refusal: () => undefined };

const idOf = (value: unknown): number | undefined => {
  const n = Number(value);
  return value !== null && value !== undefined && value !== '' && Number.isInteger(n) && n > 0 ? n : undefined;
};

/**
 * Reads, for the customers and days a write touches, which of them lie in a closed period (a handful of queries, and
 * none beyond the closings themselves unless a day is on or before the latest closing date of some group). Takes the
 * closing lock shared first.
 * @example (await closedPeriods(trx, [{ clientId: 12, date: '2025-05-15' }])).refusal(12, '2025-05-15', SALES_SUBJECT)
 * // ApiError 400 「2025年05月 20日締めの締め処理済みの期間です（売上日 2025-05-15）。…」
 */
export async function closedPeriods(trx: Transaction<Database>, items: readonly { clientId: unknown; date: unknown }[]): Promise<ClosedPeriods> {
  await serialize(trx, CLOSING_LOCK, 'shared');
  const closings = await trx.selectFrom('closing').select(['cls_sime_gp', 'cls_sime_ym', 'cls_closing_date']).orderBy('cls_closing_date').execute();
  if (closings.length === 0) return OPEN;
  const latest = String(closings.at(-1)!.cls_closing_date);
  const clientIds = [...new Set(items.flatMap((item) => {
    const id = idOf(item.clientId);
    return id !== undefined && typeof item.date === 'string' && item.date <= latest ? [id] : [];
  }))];
  if (clientIds.length === 0) return OPEN;

  const groups = await billingGroupsOf(trx, clientIds);
  const tops = await rowsByIds(trx, 'client', 'cl_id', [...new Set([...groups.values()].map((g) => g.billingId))], ['cl_id', 'cl_sime_gp']);
  const byGroup = new Map<string, { ym: string; date: string }[]>();
  for (const c of closings) {
    const gp = String(c.cls_sime_gp);
    byGroup.set(gp, [...(byGroup.get(gp) ?? []), { ym: String(c.cls_sime_ym), date: String(c.cls_closing_date) }]);
  }
  return {
    refusal(clientId, date, subject) {
      const id = idOf(clientId);
      const group = id === undefined ? undefined : groups.get(id);
      if (!group || typeof date !== 'string') return undefined;
      const gp = String(tops.get(group.billingId)?.cl_sime_gp ?? '');
      // The group's closings by date: the first one on or after the day is the one that closed it.
      const covering = (byGroup.get(gp) ?? []).find((c) => c.date >= date);
      if (!covering) return undefined;
      const message = `${closingLabel(gp, covering.ym)}の締め処理済みの期間です（${subject.label} ${date}）。この期間の${subject.what}は登録・変更・削除できません。変更するには先に締め戻しをしてください。`;
      return badRequest(message, { fields: { [subject.field]: message } });
    },
  };
}

/** A sales slip's subject in the refusal. */
export const SALES_SUBJECT: ClosedSubject = { what: '売上伝票', field: 'date', label: '売上日' };
/** A payment's subject in the refusal. */
export const PAYMENT_SUBJECT: ClosedSubject = { what: '入金伝票', field: 'date', label: '入金日' };
