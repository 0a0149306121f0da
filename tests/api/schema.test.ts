/**
 * The migrations against the declarations: every declared field of every resource has its
 * column with the type its kind requires; the first-start seed fills an empty database once.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as v from 'valibot';
import { RESOURCES } from '../../lib/resources';
import { clientResource } from '../../lib/resources/client';
import { resourceSchema } from '../../lib/resources/schema';
import { columnKind, columnOf, idColumn, type FieldDef } from '../../lib/resources/types';
import { todayJst } from '../../lib/format';
import { DEMO_ROUND_DAYS } from '../../server/seed/hod';
import { DEMO_CLIENTS, seedIfEmpty } from '../../server/seed/seed';
import { generateClients } from '../../server/seed/data/generate';
import { SEED_MAIL_TEMPLATES } from '../../server/seed/data/mail-templates';
import { DEMO_COMPANY } from '../../server/seed/data/company';
import { INVOICE_MAIL_TEMPLATE } from '../../server/db/migrations/0042-company-invoice';
import { registrationNumberProblem } from '../../lib/billing/registration-number';
import { dialects, freshDatabase, type FreshDatabase } from './harness';

type TypeClass = 'text' | 'integer' | 'real';

const expected = (field: FieldDef): TypeClass => columnKind(field);

function classOf(dataType: string): string {
  const t = dataType.toLowerCase();
  if (t === 'text') return 'text';
  if (t === 'integer' || t === 'int4' || t === 'int8') return 'integer';
  if (t === 'double precision' || t === 'float8' || t === 'real') return 'real';
  return t;
}

for (const dialect of dialects()) {
  describe(dialect, () => {
    let fresh: FreshDatabase;
    before(async () => {
      fresh = await freshDatabase(dialect);
    });
    after(async () => {
      await fresh?.close();
    });

    it('every declared field of every resource has its column of the right type', async () => {
      const tables = new Map((await fresh.database.db.introspection.getTables()).map((t) => [t.name, t]));
      for (const def of Object.values(RESOURCES)) {
        const table = tables.get(def.table);
        assert.ok(table, `table ${def.table}`);
        const columns = new Map(table.columns.map((c) => [c.name, classOf(c.dataType)]));
        for (const field of def.fields) {
          assert.equal(columns.get(columnOf(def, field.name)), expected(field), `${def.table}.${columnOf(def, field.name)}`);
        }
        for (const [column, type] of [[idColumn(def), 'integer'], [`${def.prefix}search`, 'text'], ['created', 'text'], ['modified', 'text'], ['deleted', 'integer']]) {
          assert.equal(columns.get(column), type, `${def.table}.${column}`);
        }
        for (const sortable of def.list.sortable) assert.ok(columns.has(sortable), `${def.table}: sortable ${sortable}`);
      }
    });

    it('the first start seeds the admin, the demo company and its masters, once', async () => {
      const printed: string[] = [];
      const config = { adminEmail: '', adminPassword: '', seed: true };
      assert.equal(await seedIfEmpty(fresh.database, config, (t) => printed.push(t)), true);
      const { db } = fresh.database;
      const admin = await db.selectFrom('user').selectAll().where('user_email', '=', 'admin@example.jp').executeTakeFirstOrThrow();
      assert.equal(admin.user_role, '管理');
      assert.match(printed.join('\n'), /パスワード \/ Password\s+: [A-Za-z0-9_-]{16}/);
      assert.ok(!printed.join('\n').includes(admin.user_password));
      const roles = new Set((await db.selectFrom('user').select('user_role').execute()).map((u) => u.user_role));
      assert.deepEqual([...roles].sort(), ['営業', '管理', '経理', '配送'].sort());
      const clients = await db.selectFrom('client').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.equal(Number(clients.n), DEMO_CLIENTS);
      const sample = await db.selectFrom('client').select(['cl_search', 'cl_co_name', 'cl_name']).limit(1).executeTakeFirstOrThrow();
      assert.ok(String(sample.cl_search).length > 0);
      const orders = await db.selectFrom('orders').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
      assert.ok(Number(orders.n) > 0);
      const masters = await db.selectFrom('master_option').select('mo_table').distinct().execute();
      assert.ok(masters.some((m) => m.mo_table === 'mt_pmt_method'));
      const templates = await db.selectFrom('mail_template').select(['ml_name', 'ml_active']).orderBy('ml_id').execute();
      // The invoice mail comes with migration 0042 (every database), the everyday mails with the demo company.
      assert.deepEqual(templates.map((t) => t.ml_name), [INVOICE_MAIL_TEMPLATE.name, ...SEED_MAIL_TEMPLATES.map((t) => t.name)]);
      assert.ok(templates.every((t) => t.ml_active === 1));
      // 自社情報 saved through its own save: the demo's invoices can be printed.
      const company = await db.selectFrom('company_setting').selectAll().executeTakeFirstOrThrow();
      assert.equal(company.cs_name, DEMO_COMPANY.name);
      assert.equal(registrationNumberProblem(String(company.cs_invoice_no)), undefined);

      // Regular delivery: each driver serves the scheduled customers of their route's prefecture (the others ship by
      // carrier) and has the recent rounds, booked in the bottle ledger through the round's save (one movement per
      // customer × item of a round); every customer of a driver is visited.
      const drivers = (await db.selectFrom('user').select('user_id').where('user_role', '=', '配送').execute()).map((u) => Number(u.user_id));
      const served = await db.selectFrom('client').select(['cl_id', 'cl_delivery_usr_id', 'cl_pref', 'cl_shipping_pref']).where('cl_haiso_flag', '=', 1).where('cl_delivery_usr_id', 'is not', null).execute();
      assert.deepEqual(new Set(served.map((c) => Number(c.cl_delivery_usr_id))), new Set(drivers), 'every driver serves customers');
      const rounds = await db.selectFrom('hod_report').select(['hr_id', 'hr_date', 'hr_usr_id', 'hr_stop_count', 'hr_delivered_total', 'hr_collected_total']).execute();
      assert.deepEqual(new Set(rounds.map((r) => Number(r.hr_usr_id))), new Set(drivers));
      assert.equal(new Set(rounds.map((r) => String(r.hr_date))).size, DEMO_ROUND_DAYS);
      assert.ok(rounds.every((r) => String(r.hr_date) < todayJst() && Number(r.hr_collected_total) <= Number(r.hr_delivered_total)));
      const stops = await db.selectFrom('hod_report_stop').select(['hrs_cl_id', 'hrs_bt_id', 'hrs_delivered']).execute();
      assert.deepEqual(new Set(stops.map((s) => Number(s.hrs_cl_id))), new Set(served.map((c) => Number(c.cl_id))), 'each served customer visited');
      assert.equal(rounds.reduce((n, r) => n + Number(r.hr_stop_count), 0), stops.length);
      const booked = stops.filter((s) => Number(s.hrs_delivered) > 0);
      const movements = await db.selectFrom('bottle').select('bt_id').where('bt_id', 'in', booked.map((s) => Number(s.hrs_bt_id))).where('deleted', '=', 0).execute();
      assert.equal(movements.length, booked.length, 'every delivered stop is a bottle movement');

      // Receivables: every processed order has its slip (same total), a few hand 返品・値引, and every customer's
      // 売掛残高 is its opening balance + its slips − its payments (never below zero: payments pay what was sold).
      const processed = await db.selectFrom('orders').select(['od_id', 'od_uriage_total']).where('od_status', '=', 'processed').where('deleted', '=', 0).execute();
      const slips = await db.selectFrom('sales').select(['sl_cl_id', 'sl_od_id', 'sl_kind', 'sl_total']).where('deleted', '=', 0).execute();
      const slipOf = new Map(slips.filter((s) => s.sl_od_id !== null).map((s) => [Number(s.sl_od_id), Number(s.sl_total)]));
      assert.ok(processed.length > 500);
      for (const o of processed) assert.equal(slipOf.get(Number(o.od_id)), Number(o.od_uriage_total), `order ${o.od_id}`);
      assert.equal(slipOf.size, processed.length);
      const kinds = new Set(slips.map((s) => s.sl_kind));
      assert.ok(kinds.has('return') && kinds.has('discount'), [...kinds].join());
      const payments = await db.selectFrom('payment').select(['py_cl_id', 'py_amount']).where('deleted', '=', 0).execute();
      assert.ok(payments.length > 300);
      const expectedBalance = new Map<number, number>();
      const add = (id: unknown, amount: number) => expectedBalance.set(Number(id), (expectedBalance.get(Number(id)) ?? 0) + amount);
      for (const s of slips) add(s.sl_cl_id, Number(s.sl_total));
      for (const p of payments) add(p.py_cl_id, -Number(p.py_amount));
      const balances = await db.selectFrom('client').select(['cl_id', 'cl_uri_zan', 'cl_opening_balance']).execute();
      for (const c of balances) {
        assert.equal(Number(c.cl_uri_zan), Number(c.cl_opening_balance ?? 0) + (expectedBalance.get(Number(c.cl_id)) ?? 0), `customer ${c.cl_id}`);
        assert.ok(Number(c.cl_uri_zan) >= 0, `customer ${c.cl_id}: ${c.cl_uri_zan}`);
      }
      assert.ok(balances.filter((c) => Number(c.cl_uri_zan) > 0).length > 50, 'the recent months are unpaid');
      assert.equal(await seedIfEmpty(fresh.database, config, (t) => printed.push(t)), false, 'only on first start');
    });
  });
}

describe('demo data', () => {
  it('every generated customer passes the customer schema', () => {
    const schema = resourceSchema(clientResource);
    for (const client of generateClients(DEMO_CLIENTS)) {
      const result = v.safeParse(schema, client);
      assert.ok(result.success, `${client.co_name || client.name}: ${result.issues?.map((i) => `${String(i.path?.[0]?.key)} ${i.message}`).join(', ')}`);
    }
  });
});
