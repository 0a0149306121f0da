/**
 * Check-then-write races between server processes: the real server (`server/main.ts`) with two
 * processes (`WEB_CONCURRENCY=2`) on SQLite and — when TEST_DATABASE_URL is set — on a fresh PostgreSQL
 * database, where transactions really run side by side. Each case fires the same writes at once and
 * checks that exactly what one-at-a-time writes would leave is left: one delete (of a record, of a saved
 * search), one saved search per
 * name, one record per unique value, no overlapping tax periods, no reference to a deleted record, no
 * deleted item with stock, no role deleted under its users, shipments and delivery rounds that do not deadlock,
 * regular-delivery runs that take turns, and always an active 管理.
 */
import assert from 'node:assert/strict';
import { trackingCheckDigit } from '../../lib/orders/tracking';
import { after, before, describe, it } from 'node:test';
import { ADMIN_ROLE } from '../../lib/permissions';
import { MESSAGES } from '../../lib/protocol';
import { USER_MESSAGES } from '../../server/auth/user-policy';
import { dialects } from './harness';
import { startServerProcess, type ServerProcess } from './server-process';

/** A valid tracking number of its own for order i of a round (the move checks the check digit). */
const trackingNoOf = (round: number, i: number): string => {
  const first11 = `9${String(round).padStart(5, '0')}${String(i).padStart(5, '0')}`;
  return `${first11}${trackingCheckDigit(first11)}`;
};

const ADMIN = { email: 'concurrency@example.jp', password: 'concurrency-password-2026' };
const RACERS = 20;

type Answer = Awaited<ReturnType<ServerProcess['post']>>;
type Params = Record<string, string | number | object | undefined>;

/** The statuses and bodies of answers, for a failure message. */
const told = (answers: readonly Answer[]): string => answers.map((a) => `${a.status} ${a.text}`).join('\n');
const statuses = (answers: readonly Answer[]): number[] => answers.map((a) => a.status).sort();
const fieldsOf = (answer: Answer): Record<string, string> => (answer.body[0]?.fields ?? {}) as Record<string, string>;

for (const dialect of dialects()) {
  describe(`concurrent writes from two server processes (${dialect})`, () => {
    let server: ServerProcess;
    let adminKey = '';
    let adminId = 0;

    before(async () => {
      server = await startServerProcess(dialect, ADMIN, 2);
      const login = await server.post('/api/login/', { userEmail: ADMIN.email, userPassword: ADMIN.password });
      assert.equal(login.status, 200, login.text);
      adminKey = String(login.body[0].auth_key);
      adminId = Number(login.body[0].user_id);
    });

    after(async () => {
      await server?.close();
    });

    /** A call with form parameters (objects sent as JSON), as the admin unless `key` says otherwise. */
    const call = (name: string, params: Params = {}, key = adminKey): Promise<Answer> => {
      const form: Record<string, string> = { authKey: key };
      for (const [k, v] of Object.entries(params)) if (v !== undefined) form[k] = typeof v === 'object' ? JSON.stringify(v) : String(v);
      return server.post(`/api/db/${name}`, form);
    };
    const ok = async (name: string, params: Params = {}, key = adminKey): Promise<Record<string, unknown>> => {
      const answer = await call(name, params, key);
      assert.equal(answer.status, 200, `${name}: ${answer.text}`);
      return answer.body[0];
    };
    /** `n` calls fired at once. */
    const race = (n: number, one: (i: number) => Promise<Answer>): Promise<Answer[]> => Promise.all(Array.from({ length: n }, (_, i) => one(i)));
    const logRows = async (postData: Params) => (await call('log_lst', { n: 1000, postData })).body;

    it(`${RACERS} deletes of one customer: one deletes it, the rest answer 404, one audit row`, async () => {
      const client = await ok('client_save', { postData: { co_name: '同時削除商事', tel_1: '03-1111-2222', status: '1' } });
      const id = Number(client.cl_id);
      const answers = await race(RACERS, () => call('client_del', { id }));
      assert.deepEqual(statuses(answers), [200, ...Array<number>(RACERS - 1).fill(404)], told(answers));
      assert.ok(answers.filter((a) => a.status === 404).every((a) => a.body[0].error === MESSAGES.notFound), told(answers));
      assert.equal((await logRows({ table: 'client', record_id: id, call: 'client_del' })).length, 1);
    });

    it(`${RACERS} saves of one search name: one saved search, every answer naming it`, async () => {
      const answers = await race(RACERS, (i) => call('search_save', { srch_name: '同時に保存', srch_tbl: 'client', srch_kw: `語${i}`, srch_col: 'cl_id', srch_odr: 'desc', postData: '{}' }));
      assert.ok(answers.every((a) => a.status === 200), told(answers));
      const list = (await call('search_lst', { srch_tbl: 'client' })).body.filter((s) => s.srch_name === '同時に保存');
      assert.equal(list.length, 1, JSON.stringify(list));
      assert.deepEqual(new Set(answers.map((a) => a.body[0].srch_id)), new Set([list[0].srch_id]));
    });

    it(`${RACERS} deletes of one saved search: one deletes it, the rest answer 404, one audit row`, async () => {
      const saved = await ok('search_save', { srch_name: '同時に削除', srch_tbl: 'order', srch_kw: '', srch_col: 'od_id', srch_odr: 'desc', postData: '{}' });
      const answers = await race(RACERS, () => call('search_sync', { srch_id: Number(saved.srch_id) }));
      assert.deepEqual(statuses(answers), [200, ...Array<number>(RACERS - 1).fill(404)], told(answers));
      assert.equal((await logRows({ table: 'search', record_id: Number(saved.srch_id), call: 'search_sync' })).length, 1);
    });

    it(`${RACERS} new items with one code: one is saved, the rest are told the code is taken`, async () => {
      const answers = await race(RACERS, (i) => call('item_save', { postData: { code: 'RACE-01', name: `同時登録 ${i}`, unit: '本', price: 100, tax_class: 'reduced' } }));
      assert.deepEqual(statuses(answers), [200, ...Array<number>(RACERS - 1).fill(400)], told(answers));
      for (const refused of answers.filter((a) => a.status === 400)) assert.equal(fieldsOf(refused).code, '商品コード「RACE-01」は既に登録されています。', refused.text);
    });

    it('overlapping tax periods saved at once: one is saved, the rest overlap it', async () => {
      const current = (await call('tax_lst', { n: 100, postData: { tax_class: ['standard'] } })).body.find((r) => r.tx_valid_to === '' || r.tx_valid_to === null);
      assert.ok(current, 'the current standard rate has no end');
      await ok('tax_save', { id: Number(current.tx_id), postData: { valid_to: '2039-12-31', modified: current.modified } });
      const answers = await race(10, (i) => call('tax_save', { postData: { tax_class: 'standard', rate: 12, valid_from: '2040-01-01', label: `標準12% 案${i}` } }));
      assert.deepEqual(statuses(answers), [200, ...Array<number>(9).fill(400)], told(answers));
      const rows = (await call('tax_lst', { n: 100, postData: { tax_class: ['standard'], valid_from: ['2040-01-01', '2040-01-01'] } })).body;
      assert.equal(rows.length, 1, JSON.stringify(rows));
    });

    // The delete goes first: its checks take a while, and the saves land inside them.
    it('a customer deleted while records are saved pointing at it: never a live record of a deleted customer', async () => {
      for (let round = 0; round < 5; round++) {
        const client = await ok('client_save', { postData: { co_name: `参照中の削除 ${round}`, tel_1: '03-1111-2222', status: '1' } });
        const id = Number(client.cl_id);
        const answers = await race(3, (i) => (i === 0
          ? call('client_del', { id })
          : call('contact_save', { postData: { cl_id: id, uketsuke_date: '2026-05-01', channel: '1', subject: `同時の対応 ${i}`, status: '1' } })));
        const contacts = (await call('contact_lst', { n: 100, cl_id: id })).body;
        if (answers[0].status === 200) assert.deepEqual(contacts, [], `the customer is deleted, yet it has contacts:\n${told(answers)}`);
        else assert.ok(answers[0].status === 400 && contacts.length > 0, told(answers));
      }
    });

    it('a ring of customers each given the next as 請求親顧客 at once: all but one saved, never a loop', async () => {
      const ring = 6;
      const clients: Record<string, unknown>[] = [];
      for (let i = 0; i < ring; i++) clients.push(await ok('client_save', { postData: { co_name: `同時の請求親 ${i}`, tel_1: '03-1111-2222', status: '1' } }));
      const answers = await race(ring, (i) => call('client_save', { id: Number(clients[i].cl_id), postData: { parent_id: Number(clients[(i + 1) % ring].cl_id), modified: clients[i].modified } }));
      assert.deepEqual(statuses(answers), [...Array<number>(ring - 1).fill(200), 400], told(answers));
      assert.match(fieldsOf(answers.find((a) => a.status === 400)!).parent_id ?? '', /請求先が循環します/, told(answers));
      const parents = new Map<number, number | null>();
      for (const c of clients) {
        const [row] = (await call('client_dtl', { id: Number(c.cl_id) })).body;
        parents.set(Number(c.cl_id), row.cl_parent_id === null ? null : Number(row.cl_parent_id));
      }
      assert.equal([...parents.values()].filter((p) => p === null).length, 1, JSON.stringify([...parents]));
    });

    it('an item deleted while stock is taken in: never a deleted item with stock', async () => {
      const warehouse = await ok('souko_save', { postData: { code: 'RACE-SK', name: '同時倉庫', active: '1' } });
      for (let round = 0; round < 5; round++) {
        const item = await ok('item_save', { postData: { code: `RACE-IT-${round}`, name: `在庫と削除 ${round}`, unit: '本', price: 100, tax_class: 'reduced', stock_tracked: '1' } });
        const answers = await race(3, (i) => (i === 0
          ? call('item_del', { id: Number(item.it_id) })
          : call('stock_adjust', { sk_id: Number(warehouse.sk_id), postData: { it_id: Number(item.it_id), kind: 'in', quantity: 3, reason: '同時入庫' } })));
        if (answers[0].status === 200) assert.ok(answers.slice(1).every((a) => a.status === 400), `stock was taken in for a deleted item:\n${told(answers)}`);
        else assert.ok(answers[0].status === 400 && answers.slice(1).some((a) => a.status === 200), told(answers));
      }
    });

    it('a role deleted while users are given it: never a live user of a deleted role', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) ids.push(Number((await ok('user_save', { postData: { name: `同時 ${i}`, email: `race-${i}@example.jp`, role: '営業', active: '1', password: 'race-pass-2026' } })).user_id));
      const setRole = async (id: number, role: string, modified?: unknown) =>
        call('user_save', { id, postData: { role, modified: modified ?? (await ok('user_dtl', { id })).modified } });
      for (let round = 0; round < 5; round++) {
        const name = `同時役${round}`;
        const role = await ok('role_save', { postData: { name, areas: JSON.stringify({ client: 'read' }) } });
        const loaded = await Promise.all(ids.map(async (id) => (await ok('user_dtl', { id })).modified));
        const answers = await race(ids.length + 1, (i) => (i === 0 ? call('role_del', { id: Number(role.role_id) }) : setRole(ids[i - 1], name, loaded[i - 1])));
        const holders = (await call('user_lst', { n: 100, kw: 'race-' })).body.filter((u) => u.user_role === name);
        if (answers[0].status === 200) assert.deepEqual(holders, [], `the role is deleted, yet users hold it:\n${told(answers)}`);
        else assert.ok(answers[0].status === 400 && holders.length > 0, told(answers));
        for (const id of ids) assert.equal((await setRole(id, '営業')).status, 200);
      }
    });

    it('two orders with the same items in opposite order shipped at once: both ship, each item out twice', async () => {
      const warehouse = await ok('souko_save', { postData: { code: 'SHIP-SK', name: '出荷倉庫', active: '1' } });
      const sk = Number(warehouse.sk_id);
      const items: number[] = [];
      for (const code of ['SHIP-A', 'SHIP-B', 'SHIP-C']) {
        const item = await ok('item_save', { postData: { code, name: `出荷 ${code}`, unit: '本', price: 100, tax_class: 'reduced', stock_tracked: '1' } });
        items.push(Number(item.it_id));
        await ok('stock_adjust', { sk_id: sk, postData: { it_id: Number(item.it_id), kind: 'in', quantity: 100, reason: '出荷用' } });
      }
      const client = await ok('client_save', { postData: { co_name: '同時出荷商事', tel_1: '03-1111-2222', status: '1', sk_id: String(sk) } });
      const waiting = async (lineItems: number[]) => {
        const order = await ok('order_save', { postData: { cl_id: Number(client.cl_id), date: '2026-05-01', sk_id: String(sk), lines: lineItems.map((it_id) => ({ it_id, quantity: 1 })) } });
        await ok('order_status', { od_id: Number(order.od_id), status: 'waitshipping' });
        return Number(order.od_id);
      };
      const rounds = 4;
      for (let round = 0; round < rounds; round++) {
        const orders = [await waiting(items), await waiting([...items].reverse())];
        const answers = await Promise.all(orders.map((od_id, i) => call('order_status', { od_id, status: 'shipped', tracking_no: trackingNoOf(round, i) })));
        assert.deepEqual(statuses(answers), [200, 200], told(answers));
      }
      const stock = (await call('stock_lst', { sk_id: sk })).body;
      assert.deepEqual(stock.map((s) => s.st_quantity), items.map(() => 100 - 2 * rounds));
    });

    it('two delivery rounds with the same customers in opposite order saved at once: both book their bottles', async () => {
      const water = await ok('item_save', { postData: { code: 'ROUND-W', name: '同時便の天然水', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: '0', returnable: '1' } });
      const customers: number[] = [];
      for (let i = 0; i < 3; i++) customers.push(Number((await ok('client_save', { postData: { co_name: `同時便 ${i}`, tel_1: '03-1111-2222', status: '1' } })).cl_id));
      const rounds = 4;
      for (let round = 0; round < rounds; round++) {
        const stops = (order: number[]) => order.map((cl_id) => ({ cl_id, it_id: Number(water.it_id), delivered: 1, collected: 0, cash: 0, result: 'delivered', note: '' }));
        const answers = await Promise.all([customers, [...customers].reverse()].map((order, i) =>
          call('hodreport_save', { postData: { date: `2026-05-${String(10 + round).padStart(2, '0')}`, usr_id: adminId, route: `便${round}-${i}`, stops: stops(order) } })));
        assert.deepEqual(statuses(answers), [200, 200], told(answers));
      }
      for (const cl_id of customers) {
        const [balance] = (await call('bottle_balance', { cl_id })).body;
        assert.equal(balance.bt_held, 2 * rounds, `customer ${cl_id}`);
      }
    });

    it('regular-delivery runs at once: each order made once, every run answers, next_shipping_date never moves back', async () => {
      await ok('item_save', { postData: { code: 'HOD-W', name: '定期の天然水', unit: '本', price: 1200, tax_class: 'reduced', stock_tracked: '0', returnable: '1' } });
      const client = await ok('client_save', { postData: {
        co_name: '同時定期商事', status: '1', tel_1: '03-5555-0000', pref: '東京都', haiso_flag: 1, haiso_type: '1', haiso_wks: 1, haiso_dow: '1', haiso_num: 2, next_shipping_date: '2026-06-01',
      } });
      // Mondays 1 June and 8 June: runs of the first week and of the second, three of each. Each run is a job: a start
      // while the same week runs is refused (409), the others run, one after the other where they overlap.
      const answers = await race(6, (i) => call('hod_generate', i % 2 ? { from: '2026-06-08', to: '2026-06-14' } : { from: '2026-06-01', to: '2026-06-07' }));
      assert.ok(answers.every((a) => a.status === 200 || a.status === 409), told(answers));
      const started = answers.filter((a) => a.status === 200).map((a) => Number(a.body[0].job_id));
      assert.ok(started.length >= 2, `each week runs at least once\n${told(answers)}`);
      const ended = await Promise.all(started.map(async (id) => {
        for (;;) {
          const job = await ok('job_dtl', { id });
          if (job.state !== 'running') return job;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }));
      assert.ok(ended.every((job) => job.state === 'done'), JSON.stringify(ended));
      // A second-week run that goes first anchors the customer after the first week, as one after the other would.
      const orders = (await call('order_lst', { n: 100, cl_id: Number(client.cl_id) })).body.map((o) => o.od_delivery_date).sort();
      assert.ok(['2026-06-01,2026-06-08', '2026-06-08'].includes(orders.join()), `${orders.join()}\n${told(answers)}`);
      assert.equal(ended.reduce((sum, job) => sum + Number((job.result as { created: number }).created), 0), orders.length, JSON.stringify(ended));
      assert.equal((await ok('client_dtl', { id: Number(client.cl_id) })).cl_next_shipping_date, '2026-06-15');
    });

    it('the last two admins demoting each other at once: one stays 管理', async () => {
      const other = await ok('user_save', { postData: { name: '第二 管理者', email: 'second-admin@example.jp', role: ADMIN_ROLE, active: '1', password: 'second-admin-2026' } });
      const otherId = Number(other.user_id);
      const otherKey = String((await server.post('/api/login/', { userEmail: 'second-admin@example.jp', userPassword: 'second-admin-2026' })).body[0].auth_key);
      const keys = new Map([[adminId, adminKey], [otherId, otherKey]]);
      for (let round = 0; round < 5; round++) {
        const [mine, theirs] = await Promise.all([ok('user_dtl', { id: adminId }, otherKey), ok('user_dtl', { id: otherId })]);
        const answers = await Promise.all([
          call('user_save', { id: otherId, postData: { role: '営業', modified: theirs.modified } }, adminKey),
          call('user_save', { id: adminId, postData: { role: '営業', modified: mine.modified } }, otherKey),
        ]);
        // The other is refused as the last admin — or, when it comes after the first landed, for being 管理 no more.
        assert.equal(answers.filter((a) => a.status === 200).length, 1, told(answers));
        const refused = answers.find((a) => a.status !== 200)!;
        assert.ok((refused.status === 400 && refused.body[0].error === USER_MESSAGES.lastAdmin) || (refused.status === 403 && refused.body[0].error === MESSAGES.forbidden), told(answers));
        // The one still 管理 makes the other 管理 again for the next round.
        const stayed = answers[0].status === 200 ? adminId : otherId;
        const demoted = stayed === adminId ? otherId : adminId;
        const row = await ok('user_dtl', { id: demoted }, keys.get(stayed));
        await ok('user_save', { id: demoted, postData: { role: ADMIN_ROLE, modified: row.modified } }, keys.get(stayed));
      }
    });
  });
}
