/**
 * A list's total at any size (issue 21; server/resources/list-count.ts, migrations/row-counts.ts), on every dialect:
 * - the row counters match the rows over saves, deletes, status moves, an import, a bulk save, set-based writes
 *   (a closing's kind: many rows updated, soft-deleted and deleted in one statement) and concurrent writes from
 *   several connections; `{r}_cnt` reads them (a counter changed by hand shows in the answer: nothing recounts);
 * - a filtered total is exact up to 10,000 and otherwise `[10000, { more: true }]` (`_pagination` says `more`);
 * - `count_exact` answers the exact count, at once or as a job with progress; the resource's area gates it; bad
 *   input is refused in Japanese.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { sql } from 'kysely';
import type { JobInfo } from '../../lib/jobs';
import { LIMITS, MESSAGES } from '../../lib/protocol';
import { seedSyntheticClients } from '../../server/seed/seed';
import { dialects, jobEnded, resourceCalls, useHarness, type Refusal, type ResourceAnswer } from './harness';
import { importCalls } from './import-calls';

type Count = number | { more: true };

for (const dialect of dialects()) {
  describe(`list counts (${dialect})`, () => {
    const h = useHarness(dialect);
    const { created } = resourceCalls(h);

    /** The rows a table holds, live, in all and per value of its status column. */
    const truth = async (table: string, status?: string): Promise<Record<string, number>> => {
      const total = await sql<{ n: number | string }>`SELECT count(*) AS n FROM ${sql.table(table)} WHERE deleted = 0`.execute(h.database.db);
      const counts: Record<string, number> = { '': Number(total.rows[0].n) };
      if (status) {
        const rows = await sql<{ v: string | null; n: number | string }>`SELECT ${sql.ref(status)} AS v, count(*) AS n FROM ${sql.table(table)} WHERE deleted = 0 GROUP BY ${sql.ref(status)}`.execute(h.database.db);
        for (const row of rows.rows) counts[`${status}=${row.v ?? ''}`] = Number(row.n);
      }
      return counts;
    };
    /** What the counters hold for a table (zero keys left out). */
    const counters = async (table: string): Promise<Record<string, number>> => {
      const rows = await h.database.db.selectFrom('row_count').select(['rc_column', 'rc_value', (eb) => eb.fn.sum<number | string>('rc_n').as('n')])
        .where('rc_table', '=', table).groupBy(['rc_column', 'rc_value']).execute();
      return Object.fromEntries(rows.filter((r) => r.rc_column === '' || Number(r.n) !== 0).map((r) => [r.rc_column === '' ? '' : `${r.rc_column}=${r.rc_value}`, Number(r.n)]));
    };
    const assertExact = async (table: string, status?: string) => assert.deepEqual(await counters(table), await truth(table, status), `${table}'s counters`);
    const cnt = async (resource: string, params: Record<string, string> = {}, key?: string): Promise<Count[]> => {
      const res = await h.post<Count>(`${resource}_cnt`, params, key);
      assert.equal(res.status, 200, res.text);
      return res.body;
    };
    const statusFilter = (...statuses: string[]) => ({ postData: JSON.stringify({ od_status: statuses }) });
    /** Every order status list's total as `order_cnt` answers it, against the rows. */
    const assertOrderLists = async () => {
      const rows = await truth('orders', 'od_status');
      assert.deepEqual(await cnt('order'), [rows['']]);
      for (const status of ['untreated', 'pending', 'waitshipping', 'shipped', 'processed', 'cancelled']) {
        assert.deepEqual(await cnt('order', statusFilter(status)), [rows[`od_status=${status}`] ?? 0], status);
      }
    };
    const newOrder = async (status?: string) =>
      Number((await created('order', { cl_id: h.fixtures.clients.abc, date: '2026-04-01', ...(status ? { status } : {}) })).od_id);

    it('starts from the rows the tables hold, and keeps them over saves, status moves and deletes', async () => {
      await assertExact('orders', 'od_status');
      await assertExact('client', 'cl_status');
      await assertOrderLists();
      const ids = [await newOrder(), await newOrder(), await newOrder('pending'), await newOrder()];
      await assertOrderLists();
      const moved = await h.post('order_status', { ids: JSON.stringify([ids[0], ids[1]]), status: 'pending', reason: '確認待ち' });
      assert.equal(moved.status, 200, moved.text);
      assert.equal((await h.post('order_status', { ids: JSON.stringify([ids[2]]), status: 'cancelled' })).status, 200);
      await assertOrderLists();
      assert.equal((await h.post('order_del', { id: ids[3] })).status, 200);
      await assertOrderLists();
      await assertExact('orders', 'od_status');
      const client = Number((await created('client', { status: '1', co_name: '数える商店', tel_1: '03-1111-0000' })).cl_id);
      await assertExact('client', 'cl_status');
      assert.equal((await h.post('client_del', { id: client })).status, 200);
      await assertExact('client', 'cl_status');
      assert.deepEqual(await cnt('client'), [(await truth('client'))['']]);
    });

    it('reads the counters, never counting: a counter changed by hand shows in the total', async () => {
      const [before] = await cnt('order', statusFilter('processed'));
      await h.database.db.insertInto('row_count').values({ rc_table: 'orders', rc_column: 'od_status', rc_value: 'processed', rc_slot: 99, rc_n: 1000 }).execute();
      try {
        assert.deepEqual(await cnt('order', statusFilter('processed')), [Number(before) + 1000]);
        // Two statuses: their sum; a keyword or another filter is counted from the rows.
        const rows = await truth('orders', 'od_status');
        assert.deepEqual(await cnt('order', statusFilter('processed', 'pending')), [rows['od_status=processed'] + 1000 + rows['od_status=pending']]);
        assert.deepEqual(await cnt('order', { ...statusFilter('processed'), kw: '定期' }), [3]);
      } finally {
        await h.database.db.deleteFrom('row_count').where('rc_slot', '=', 99).execute();
      }
    });

    it('keeps them over an import, a bulk save and set-based writes (a closing and its restore write so)', async () => {
      const { preview, commit } = importCalls(h, 'client');
      const p = await preview(Buffer.from('顧客コード,会社名,電話番号1,状態\r\nK001,取込一,03-5555-0001,1\r\nK002,取込二,03-5555-0002,2\r\n'));
      assert.equal((await commit(p.import_id)).state, 'done');
      await assertExact('client', 'cl_status');
      const fees = await h.post<ResourceAnswer>('deliveryfee_lst', { n: 2 });
      const bulk = await h.post('deliveryfee_bulk_save', { postData: JSON.stringify({ rows: fees.body.map((r) => ({ id: r.df_id, fee: 999, modified: r.modified })) }) });
      assert.equal(bulk.status, 200, bulk.text);
      await assertExact('delivery_fee');
      // Set-based: 30 orders inserted by one statement, moved, half soft-deleted, then deleted for real.
      const db = h.database.db;
      const stamp = new Date().toISOString();
      await sql`INSERT INTO orders (od_cl_id, od_status, od_biko, created, modified, deleted)
        SELECT ${h.fixtures.clients.yamada}, 'shipped', 'set-based', ${stamp}, ${stamp}, 0 FROM orders o CROSS JOIN orders p LIMIT 30`.execute(db);
      await assertExact('orders', 'od_status');
      await db.updateTable('orders').set({ od_status: 'processed' }).where('od_biko', '=', 'set-based').execute();
      await assertExact('orders', 'od_status');
      await sql`UPDATE orders SET deleted = 1 WHERE od_biko = 'set-based' AND od_id % 2 = 0`.execute(db);
      await assertExact('orders', 'od_status');
      await db.deleteFrom('orders').where('od_biko', '=', 'set-based').execute();
      await assertExact('orders', 'od_status');
      await assertOrderLists();
      // Inside a transaction that rolls back: nothing counted.
      await db.transaction().execute(async (trx) => {
        await trx.updateTable('orders').set({ deleted: 1 }).where('od_cl_id', '=', h.fixtures.clients.abc).execute();
        throw new Error('roll back');
      }).catch((error: unknown) => assert.equal((error as Error).message, 'roll back'));
      await assertExact('orders', 'od_status');
    });

    it('adds a whole transaction at its commit: many statements, a status moved twice, a savepoint rolled back; nothing left pending', async () => {
      const db = h.database.db;
      const stamp = new Date().toISOString();
      await db.transaction().execute(async (trx) => {
        await sql`INSERT INTO orders (od_cl_id, od_status, od_biko, created, modified, deleted)
          SELECT ${h.fixtures.clients.yamada}, 'shipped', 'one-transaction', ${stamp}, ${stamp}, 0 FROM orders o CROSS JOIN orders p LIMIT 20`.execute(trx);
        await trx.updateTable('orders').set({ od_status: 'pending' }).where('od_biko', '=', 'one-transaction').execute();
        await sql`UPDATE orders SET od_status = 'processed' WHERE od_biko = 'one-transaction' AND od_id % 2 = 0`.execute(trx);
        // A write of no counted column: no key changes.
        await trx.updateTable('orders').set({ modified: stamp }).where('od_biko', '=', 'one-transaction').execute();
        await sql`SAVEPOINT counted`.execute(trx);
        await sql`UPDATE orders SET deleted = 1 WHERE od_biko = 'one-transaction'`.execute(trx);
        await sql`ROLLBACK TO SAVEPOINT counted`.execute(trx);
        await sql`DELETE FROM orders WHERE od_biko = 'one-transaction' AND od_id % 5 = 0`.execute(trx);
      });
      await assertExact('orders', 'od_status');
      await assertOrderLists();
      if (dialect === 'postgres') {
        // The statements' sums were held for the commit, then moved into the counters: none is left behind.
        const left = await sql<{ n: string }>`SELECT (SELECT count(*) FROM row_count_pending) + (SELECT count(*) FROM row_count_flush) AS n`.execute(db);
        assert.equal(Number(left.rows[0].n), 0);
      }
      await db.deleteFrom('orders').where('od_biko', '=', 'one-transaction').execute();
      await assertExact('orders', 'od_status');
    });

    it('stays exact under concurrent writes from several connections', async () => {
      const ids = await Promise.all(Array.from({ length: 24 }, (_, i) => newOrder(i % 3 === 0 ? 'pending' : undefined)));
      await assertExact('orders', 'od_status');
      const moves = await Promise.all(ids.map((id, i) => (i % 2 === 0
        ? h.post('order_status', { ids: JSON.stringify([id]), status: 'cancelled' })
        : h.post('order_del', { id }))));
      assert.deepEqual(moves.map((m) => m.status), ids.map(() => 200));
      await Promise.all(Array.from({ length: 12 }, () => newOrder()));
      await assertExact('orders', 'od_status');
      await assertOrderLists();
    });

    describe('past 10,000 rows', () => {
      const filtered = { postData: JSON.stringify({ created: ['2000-01-01', '2099-12-31'] }) };
      it('counts a filtered list up to 10,000 and says more; the unfiltered total stays exact from the counters', async () => {
        await seedSyntheticClients(h.database.db, 10_050);
        const rows = (await truth('client'))[''];
        assert.ok(rows > LIMITS.countCap);
        assert.deepEqual(await cnt('client'), [rows]);
        assert.deepEqual(await cnt('client', filtered), [10_000, { more: true }]);
        assert.deepEqual(await cnt('client', { kw: '数える' }), [0]);
        const pages = await h.post<Record<string, unknown>>('client_pagination', { ...filtered, n: '100' });
        assert.deepEqual(pages.body, [{ total: 10_000, pages: 100, page: 1, n: 100, more: true }]);
        const page101 = await h.post<ResourceAnswer>('client_lst', { ...filtered, n: '100', p: '101' });
        assert.ok(page101.body.length > 0, 'the rows past the cap are listed');
      });

      it('count_exact answers the exact count at once, or as a job with its progress', async () => {
        const rows = (await truth('client'))[''];
        const at = await h.post<{ count?: number; job_id?: number }>('count_exact', { resource: 'client', ...filtered });
        assert.equal(at.status, 200, at.text);
        assert.deepEqual(at.body, [{ count: rows }]);
        assert.deepEqual((await h.post('count_exact', { resource: 'client' })).body, [{ count: rows }], 'from the counters');
        const started = await h.post<{ job_id: number }>('count_exact', { resource: 'client', ...filtered, wait: '0' });
        assert.equal(started.status, 200, started.text);
        const job: JobInfo<{ count: number }> = await jobEnded<{ count: number }>(h, started.body[0].job_id);
        assert.equal(job.state, 'done', JSON.stringify(job));
        assert.equal(job.kind, 'count_exact');
        assert.deepEqual(job.result, { count: rows });
        assert.ok(job.total > 0 && job.done === job.total, `progress ${job.done} / ${job.total}`);
        // One with a condition that finds few: exact too.
        const few = await h.post<{ job_id: number }>('count_exact', { resource: 'client', kw: '山田', wait: '0' });
        const fewJob = await jobEnded<{ count: number }>(h, few.body[0].job_id);
        assert.deepEqual(fewJob.result, { count: Number((await cnt('client', { kw: '山田' }))[0]) });
      });
    });

    it('count_exact: the resource\'s area gates it, and bad input is refused in Japanese', async () => {
      const { delivery } = h.fixtures.users;
      const key = await h.keyOf(delivery.email, delivery.password);
      const refused = await h.post<Refusal>('count_exact', { resource: 'sales' }, key);
      assert.equal(refused.status, 403, refused.text);
      assert.equal(refused.body[0].error, MESSAGES.forbidden);
      assert.equal((await h.post('count_exact', { resource: 'order' }, key)).status, 200, 'its role reads orders');
      assert.equal((await h.post('count_exact', { resource: 'order' }, null)).status, 401);
      const job = await h.post<{ job_id: number }>('count_exact', { resource: 'client', kw: 'a', wait: '0' });
      const read = await h.post('job_dtl', { id: job.body[0].job_id }, key);
      assert.equal(read.status, 200, 'a count of customers is read by those who read customers');
      await jobEnded(h, job.body[0].job_id);
      for (const [params, field, message] of [
        [{ resource: 'nothing' }, 'resource', MESSAGES.countBadResource],
        [{}, 'resource', MESSAGES.countBadResource],
        [{ resource: 'client', wait: '1001' }, 'wait', MESSAGES.countBadWait],
        [{ resource: 'client', wait: '-1' }, 'wait', MESSAGES.countBadWait],
      ] as const) {
        const res = await h.post<Refusal>('count_exact', params);
        assert.equal(res.status, 400, res.text);
        assert.deepEqual(res.body[0], { error: message, fields: { [field]: message } });
      }
      const badFilter = await h.post<Refusal>('count_exact', { resource: 'order', postData: '{"od_status":' });
      assert.equal(badFilter.status, 400);
      assert.equal(badFilter.body[0].error, MESSAGES.badJson);
      const badKw = await h.post<Refusal>('count_exact', { resource: 'order', kw: 'x'.repeat(201) });
      assert.equal(badKw.body[0].error, MESSAGES.badKeyword);
    });
  });
}
