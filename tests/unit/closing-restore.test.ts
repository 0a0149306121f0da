/**
 * Closing and its restore as a property over random ledgers, through the server's own code on a real SQLite file
 * (a copy of one migrated database per run): random billing customers (terms, opening balances, delivery sites,
 * customers of other groups), slips and payments over two months and beyond, saved through the resources' write path;
 * the earlier month closed, then the month itself. Then:
 * - the run writes exactly the preview (every row to the yen), stamps every unbilled slip and payment of the group
 *   dated up to the closing date and nothing else, and each invoice's 入金額 is the sum of the payments stamped with it;
 * - a restore leaves every table exactly as it was before the closing (the audit log apart);
 * - closing again gives the same invoices (only numbers, ids and timestamps differ).
 */
import fc from 'fast-check';
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closingPeriod, paymentTermsProblem } from '@/lib/closing/period';
import { addDays } from '@/lib/format';
import { clientResource } from '@/lib/resources/client';
import { paymentResource } from '@/lib/resources/payment';
import { salesResource } from '@/lib/resources/sales';
import { createUser } from '@/server/auth/users';
import { closingPlan, previewOf } from '@/server/closing/plan';
import { closingRestore } from '@/server/closing/restore';
import { closingRun } from '@/server/closing/run';
import { openDatabase, type AppDatabase } from '@/server/db/connect';
import { migrateToLatest } from '@/server/db/migrate';
import type { ResourceRow } from '@/server/db/schema';
import { registerServerAreas } from '@/server/areas';
import { saveRecord } from '@/server/resources/records';

const YM = '202505';
const EARLIER = '202504';

const customerArb = fc.record({
  zeiTen: fc.constantFrom('2', '3', '4', '5'),
  zeiKiri: fc.constantFrom('0', '1', '2'),
  opening: fc.option(fc.integer({ min: -50_000, max: 200_000 }), { nil: undefined }),
  /** An earlier customer of the run it is a delivery site of. */
  parent: fc.option(fc.nat(), { nil: undefined }),
  /** A customer of another group (or none): never in this closing. */
  elsewhere: fc.constantFrom(false, false, false, true),
  collectCycle: fc.constantFrom('', '0', '1', '2'),
  collectDay: fc.integer({ min: 1, max: 31 }),
});
/** A day counted from the earlier month's first day: both months and the days after. */
const dayArb = fc.integer({ min: 0, max: 75 });
const slipArb = fc.record({
  customer: fc.nat(), day: dayArb,
  lines: fc.array(fc.record({
    quantity: fc.integer({ min: -4, max: 6 }).filter((q) => q !== 0), price: fc.integer({ min: 1, max: 3000 }),
    tax_class: fc.constantFrom('standard', 'reduced', 'exempt', 'outside'),
  }), { minLength: 1, maxLength: 3 }),
});
const paymentArb = fc.record({
  customer: fc.nat(), day: dayArb, amount: fc.integer({ min: -5000, max: 30_000 }).filter((a) => a !== 0),
  kind: fc.constantFrom('cash', 'transfer', 'debit', 'fee', 'discount', 'offset'),
});
const ledgerArb = fc.record({
  gp: fc.constantFrom('5', '20', '31'),
  customers: fc.array(customerArb, { minLength: 1, maxLength: 6 }),
  slips: fc.array(slipArb, { maxLength: 12 }),
  payments: fc.array(paymentArb, { maxLength: 6 }),
});

/** Every table's rows in order, but the audit log, SQLite's own and the keyword index's internals. */
async function dump(database: AppDatabase): Promise<Record<string, unknown[]>> {
  const { rows: tables } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'
    AND name NOT LIKE '%_fts%' AND name <> 'audit_log' ORDER BY name`.execute(database.db);
  const out: Record<string, unknown[]> = {};
  for (const { name } of tables) out[name] = (await sql`SELECT * FROM ${sql.table(name)} ORDER BY rowid`.execute(database.db)).rows;
  return out;
}

/** An invoice's figures without what may differ between two closings (number, ids, timestamps, job). */
const figures = (b: ResourceRow) => [b.bl_cl_id, b.bl_name, b.bl_period_from, b.bl_period_to, b.bl_prev_total, b.bl_paid, b.bl_carry, b.bl_sales_net, b.bl_tax_total, b.bl_total, b.bl_due_date, b.bl_open];

describe('closing → restore → closing (SQLite, the server\'s code)', () => {
  let dir = '';
  let template = '';
  let userId = 0;

  beforeAll(async () => {
    registerServerAreas();
    dir = mkdtempSync(join(tmpdir(), 'hod-closing-'));
    template = join(dir, 'template.db');
    const database = openDatabase({ dialect: 'sqlite', databaseUrl: '', sqliteFile: template });
    await migrateToLatest(database.db, 'sqlite');
    userId = await createUser(database.db, { email: 'closing@example.jp', password: 'closing-password-2026', name: '締め 太郎', role: '管理' });
    await sql`PRAGMA wal_checkpoint(TRUNCATE)`.execute(database.db);
    await database.close();
  }, 60_000);

  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it('writes the preview, restores exactly, and closes again to the same invoices', async () => {
    let run = 0;
    let issued = 0;
    await fc.assert(fc.asyncProperty(ledgerArb, async (ledger) => {
      const file = join(dir, `run-${++run}.db`);
      copyFileSync(template, file);
      const database = openDatabase({ dialect: 'sqlite', databaseUrl: '', sqliteFile: file });
      const ctx = (call: string) => ({ db: database.db, userId, call });
      try {
        const { gp } = ledger;
        const earlier = closingPeriod(gp, EARLIER);
        const period = closingPeriod(gp, YM);
        const ids: number[] = [];
        for (const [i, c] of ledger.customers.entries()) {
          const parent = c.parent !== undefined && ids.length > 0 ? ids[c.parent % ids.length] : undefined;
          const simeGp = c.elsewhere ? (gp === '20' ? '10' : '20') : gp;
          // 当月 on a day before the 締日 cannot happen (the save refuses it): 翌月 then.
          const collectCycle = paymentTermsProblem(simeGp, c.collectCycle, c.collectDay) ? '1' : c.collectCycle;
          const saved = await saveRecord(ctx('client_save'), clientResource, undefined, {
            co_name: `締め顧客${i}`, status: '1', tel_1: '03-1234-5678', sime_gp: simeGp,
            zei_ten: c.zeiTen, zei_kiri: c.zeiKiri, collect_cycle: collectCycle, collect_day: c.collectDay, parent_id: parent ?? '',
            ...(c.opening ? { opening_balance: c.opening, opening_balance_date: '2025-01-01' } : {}),
          });
          ids.push(Number(saved.cl_id));
        }
        for (const s of ledger.slips) {
          await saveRecord(ctx('sales_save'), salesResource, undefined, {
            cl_id: ids[s.customer % ids.length], date: addDays(earlier.from, s.day), lines: s.lines.map((l) => ({ name: '水', ...l })),
          });
        }
        for (const p of ledger.payments) {
          await saveRecord(ctx('payment_save'), paymentResource, undefined, { cl_id: ids[p.customer % ids.length], date: addDays(earlier.from, p.day), amount: p.amount, kind: p.kind });
        }

        await closingRun(ctx('closing_run'), earlier);
        const before = await dump(database);
        const preview = previewOf(await closingPlan(database.db, period));
        const first = await closingRun(ctx('closing_run'), period);
        const invoices = await database.db.selectFrom('billing').selectAll().where('bl_cls_id', '=', first.cls_id).orderBy('bl_cl_id').execute();
        expect(invoices.map((b) => [b.bl_cl_id, b.bl_name, b.bl_period_from, b.bl_period_to, b.bl_prev_total, b.bl_paid, b.bl_carry, b.bl_sales_net, b.bl_tax_total, b.bl_total]))
          .toEqual(preview.rows.map((r) => [r.cl_id, r.name, r.period_from, r.period_to, r.prev_total, r.paid, r.carry, r.sales_net, r.tax_total, r.total]));
        expect([first.invoices, first.total]).toEqual([preview.totals.invoices, preview.totals.total]);
        if (first.invoices > 0) issued++;
        for (const b of invoices) {
          const paid = await database.db.selectFrom('payment').select((eb) => eb.fn.coalesce(eb.fn.sum<number>('py_amount'), sql<number>`0`).as('s')).where('py_bli_id', '=', Number(b.bl_id)).executeTakeFirstOrThrow();
          expect(Number(paid.s)).toBe(Number(b.bl_paid));
          const rates = await database.db.selectFrom('billing_rate').select(['blr_net', 'blr_tax']).where('blr_bl_id', '=', Number(b.bl_id)).execute();
          expect([rates.reduce((s, r) => s + Number(r.blr_net), 0), rates.reduce((s, r) => s + Number(r.blr_tax), 0)]).toEqual([Number(b.bl_sales_net), Number(b.bl_tax_total)]);
        }
        // Every slip of the group's customers dated up to the closing date is billed now, and nothing else.
        const topOf = (i: number): number => {
          const { parent } = ledger.customers[i];
          return parent !== undefined && i > 0 ? topOf(parent % i) : i;
        };
        const members = new Set(ids.filter((_, i) => !ledger.customers[topOf(i)].elsewhere));
        const slips = await database.db.selectFrom('sales').select(['sl_cl_id', 'sl_date', 'sl_bli_id']).where('deleted', '=', 0).execute();
        for (const s of slips) expect(s.sl_bli_id !== null).toBe(members.has(Number(s.sl_cl_id)) && String(s.sl_date) <= period.to);

        await closingRestore(ctx('closing_restore'), period);
        expect(await dump(database)).toEqual(before);
        const second = await closingRun(ctx('closing_run'), period);
        const again = await database.db.selectFrom('billing').selectAll().where('bl_cls_id', '=', second.cls_id).orderBy('bl_cl_id').execute();
        expect(again.map(figures)).toEqual(invoices.map(figures));
        expect(again.map((b) => b.bl_number)).not.toEqual(invoices.length > 0 ? invoices.map((b) => b.bl_number) : [null]);
      } finally {
        await database.close();
        rmSync(file, { force: true });
      }
    }), { numRuns: 30 });
    // The random ledgers do make invoices (not only empty closings).
    expect(issued).toBeGreaterThan(15);
  }, 300_000);
});
