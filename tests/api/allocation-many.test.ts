/**
 * 消込 of many payments at once (`allocateMany`, server/sales/allocation.ts — the one allocation path; the JACCS result
 * import allocates a thousand payments per call): every change is checked by the rules `payment_allocate` applies and
 * refused with the same message (an invoice deleted mid-way, an amount above the open amount, another billing
 * customer's invoice, a payment gone), a later change of the batch sees what the earlier ones allocated, the accepted
 * ones are written with their audit rows, the invoices' 残額 and the payments' version; without `refused` the first
 * refusal throws and the transaction writes nothing. Both dialects.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { ApiError } from '../../server/http/api-error';
import { allocateMany, type AllocationChange } from '../../server/sales/allocation';
import { dialects, resourceCalls, useHarness, type ResourceAnswer } from './harness';

const CALL = 'allocation_many_test';

for (const dialect of dialects()) {
  describe(`allocation of many payments (${dialect})`, () => {
    const h = useHarness(dialect);
    const { created, problem } = resourceCalls(h);
    const actor = () => ({ userId: h.fixtures.users.admin.id, call: CALL });

    /** An invoice as the closing writes one (total = open, nothing allocated). */
    async function invoice(clientId: number, ym: string, total: number): Promise<number> {
      const stamp = new Date().toISOString();
      const closing = `${ym.slice(0, 4)}-${ym.slice(4)}-28`;
      const row = await h.database.db.insertInto('billing').values({
        bl_number: `M${ym}-${String(clientId).padStart(4, '0')}-${total}`, bl_cl_id: clientId, bl_sime_gp: '31', bl_sime_ym: ym, bl_closing_date: closing,
        bl_period_from: `${ym.slice(0, 4)}-${ym.slice(4)}-01`, bl_period_to: closing, bl_due_date: '', bl_name: '', bl_reissued: '', bl_search: '',
        bl_prev_total: 0, bl_paid: 0, bl_carry: 0, bl_sales_net: total, bl_tax_total: 0, bl_total: total, bl_allocated: 0, bl_open: total, bl_print_count: 0,
        created: stamp, modified: stamp,
      }).returning('bl_id').executeTakeFirstOrThrow();
      return Number(row.bl_id);
    }
    const payment = async (clientId: number, amount: number) => created('payment', { kind: 'transfer', date: '2026-06-10', cl_id: clientId, amount });
    const openOf = async (id: number) => {
      const row = await h.database.db.selectFrom('billing').select(['bl_allocated', 'bl_open']).where('bl_id', '=', id).executeTakeFirstOrThrow();
      return [Number(row.bl_allocated), Number(row.bl_open)];
    };
    const modifiedOf = async (py: ResourceAnswer) => String((await h.database.db.selectFrom('payment').select('modified').where('py_id', '=', Number(py.py_id)).executeTakeFirstOrThrow()).modified);
    const allocationsOf = async (py: ResourceAnswer) => (await h.database.db.selectFrom('allocation').select(['al_bl_id', 'al_amount']).where('al_py_id', '=', Number(py.py_id)).orderBy('al_bl_id').execute())
      .map((r) => [Number(r.al_bl_id), Number(r.al_amount)]);
    /** What a refusal says: its field's message when it names one, else its message. */
    const said = (error: unknown): [number, string] => {
      assert.ok(error instanceof ApiError, String(error));
      const fields = (error.extra.fields ?? {}) as Record<string, string>;
      return [error.status, Object.values(fields)[0] ?? error.message];
    };

    let inv = { jan: 0, feb: 0, mar: 0, gone: 0, other: 0 };
    before(async () => {
      const { contract, yamada } = h.fixtures.clients;
      inv = {
        jan: await invoice(contract, '202601', 3000), feb: await invoice(contract, '202602', 1000), mar: await invoice(contract, '202603', 5000),
        gone: await invoice(contract, '202604', 2000), other: await invoice(yamada, '202601', 4000),
      };
    });

    it('refuses each change by payment_allocate\'s rules and message, counts the batch\'s earlier allocations, and writes the others', async () => {
      const { contract } = h.fixtures.clients;
      const [p1, pGoneInvoice, pOver, p4, pShared, pOther, pGone, pAuto] = [
        await payment(contract, 3000), await payment(contract, 2000), await payment(contract, 1500), await payment(contract, 3000),
        await payment(contract, 3000), await payment(contract, 1000), await payment(contract, 500), await payment(contract, 500),
      ];
      // Mid-way: the invoice is deleted (as a 締め戻し does) and a payment deleted after the lines were chosen.
      await h.database.db.updateTable('billing').set({ deleted: 1 }).where('bl_id', '=', inv.gone).execute();
      assert.equal((await h.post('payment_del', { id: pGone.py_id })).status, 200);
      const versions = await Promise.all([p1, pGoneInvoice, pOver, p4, pShared, pOther, pAuto].map(modifiedOf));
      const changes: AllocationChange[] = [
        { py_id: Number(p1.py_id), lines: [{ bl_id: inv.jan, amount: 3000 }] },
        { py_id: Number(pGoneInvoice.py_id), lines: [{ bl_id: inv.gone, amount: 2000 }] },
        { py_id: Number(pOver.py_id), lines: [{ bl_id: inv.feb, amount: 1500 }] },
        { py_id: Number(p4.py_id), lines: [{ bl_id: inv.mar, amount: 3000 }] },
        { py_id: Number(pShared.py_id), lines: [{ bl_id: inv.mar, amount: 3000 }] },
        { py_id: Number(pOther.py_id), lines: [{ bl_id: inv.other, amount: 1000 }] },
        { py_id: Number(pGone.py_id), lines: [{ bl_id: inv.jan, amount: 500 }] },
        { py_id: Number(pAuto.py_id), lines: 'auto' },
      ];
      const refusals = new Map<number, [number, string]>();
      const stamps = await h.database.db.transaction().execute((trx) => allocateMany(trx, actor(), changes, { refused: (i, error) => refusals.set(i, said(error)) }));

      assert.deepEqual([...refusals.keys()].sort(), [1, 2, 4, 5, 6], 'the deleted invoice, the amount over, the shared invoice, another 請求先, the deleted payment');
      assert.match(refusals.get(1)![1], /1行目：請求書が見つかりません（ID \d+）。締め戻しされた可能性があります。/);
      assert.match(refusals.get(2)![1], /1行目：請求書 M202602-\S+ の残額 1,000円 を超えて消込できません。/);
      assert.match(refusals.get(4)![1], /1行目：請求書 M202603-\S+ の残額 2,000円 を超えて消込できません。/, 'the earlier change of the batch took 3,000円 of it');
      assert.match(refusals.get(5)![1], /別の請求先の請求書です/);
      assert.equal(refusals.get(6)![0], 404);
      assert.deepEqual([1, 2, 4, 5].map((i) => refusals.get(i)![0]), [400, 400, 400, 400]);

      assert.deepEqual(await allocationsOf(p1), [[inv.jan, 3000]]);
      assert.deepEqual(await allocationsOf(p4), [[inv.mar, 3000]]);
      assert.deepEqual(await allocationsOf(pAuto), [[inv.feb, 500]], 'auto skipped January, which the batch\'s first change paid in full');
      for (const py of [pGoneInvoice, pOver, pShared, pOther]) assert.deepEqual(await allocationsOf(py), [], `payment ${py.py_id} has none`);
      assert.deepEqual(await openOf(inv.jan), [3000, 0]);
      assert.deepEqual(await openOf(inv.feb), [500, 500]);
      assert.deepEqual(await openOf(inv.mar), [3000, 2000]);
      assert.deepEqual(await openOf(inv.gone), [0, 2000]);

      // The accepted payments moved to the one stamp answered; the refused ones kept theirs.
      const stamp = stamps[0];
      assert.ok(stamp > versions[0], 'later than the payment\'s version');
      assert.deepEqual(stamps.map((s) => s !== ''), [true, false, false, true, false, false, false, true]);
      assert.deepEqual(await Promise.all([p1, pGoneInvoice, pOver, p4, pShared, pOther, pAuto].map(modifiedOf)),
        [stamp, versions[1], versions[2], stamp, versions[4], versions[5], stamp]);
      const audits = await h.database.db.selectFrom('audit_log').select(['log_record_id', 'log_changes', 'created']).where('log_call', '=', CALL).where('log_table', '=', 'allocation').orderBy('log_id').execute();
      assert.deepEqual(audits.map((a) => JSON.parse(String(a.log_changes)) as unknown), [
        { al_bl_id: [null, inv.jan], al_py_id: [null, Number(p1.py_id)], al_amount: [null, 3000] },
        { al_bl_id: [null, inv.mar], al_py_id: [null, Number(p4.py_id)], al_amount: [null, 3000] },
        { al_bl_id: [null, inv.feb], al_py_id: [null, Number(pAuto.py_id)], al_amount: [null, 500] },
      ], 'one audit row per allocation added');

      // payment_allocate (the same path with one payment) refuses the same lines with the same words.
      const single = async (py: ResourceAnswer, lines: unknown[]) => {
        const res = await h.post('payment_allocate', { py_id: py.py_id, modified: await modifiedOf(py), postData: JSON.stringify({ lines }) });
        return [res.status, Object.values(problem(res).fields ?? {})[0] ?? problem(res).error];
      };
      assert.deepEqual(await single(pShared, [{ bl_id: inv.mar, amount: 3000 }]), refusals.get(4));
      assert.deepEqual(await single(pOther, [{ bl_id: inv.other, amount: 1000 }]), refusals.get(5));
      assert.deepEqual(await single(pGoneInvoice, [{ bl_id: inv.gone, amount: 2000 }]), refusals.get(1));
    });

    it('without `refused` throws the first refusal and the transaction writes nothing', async () => {
      const { contract } = h.fixtures.clients;
      const [ok, over] = [await payment(contract, 200), await payment(contract, 9000)];
      const before = { ok: await modifiedOf(ok), mar: await openOf(inv.mar), feb: await openOf(inv.feb) };
      const changes: AllocationChange[] = [
        { py_id: Number(ok.py_id), lines: [{ bl_id: inv.feb, amount: 200 }] },
        { py_id: Number(over.py_id), lines: [{ bl_id: inv.mar, amount: 9000 }] },
      ];
      await assert.rejects(h.database.db.transaction().execute((trx) => allocateMany(trx, actor(), changes)), (error: unknown) => {
        assert.deepEqual(said(error), [400, `1行目：請求書 ${`M202603-${String(contract).padStart(4, '0')}-5000`} の残額 2,000円 を超えて消込できません。`]);
        return true;
      });
      assert.deepEqual(await allocationsOf(ok), [], 'the accepted change of the batch is not written either');
      assert.deepEqual([await modifiedOf(ok), await openOf(inv.mar), await openOf(inv.feb)], [before.ok, before.mar, before.feb]);
      // A stale version is refused like payment_allocate's (409), a payment given twice is a programming error.
      await assert.rejects(h.database.db.transaction().execute((trx) => allocateMany(trx, actor(), [{ py_id: Number(ok.py_id), lines: [], modified: '2020-01-01T00:00:00.000Z' }])),
        (error: unknown) => error instanceof ApiError && error.status === 409);
      await assert.rejects(h.database.db.transaction().execute((trx) => allocateMany(trx, actor(), [changes[0], changes[0]])), /twice/);
    });
  });
}
