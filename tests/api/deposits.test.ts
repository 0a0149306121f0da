/**
 * 容器保証金 follows the bottles (issue 12 "Deposits"): a bottle movement of an item with a deposit writes its own
 * 保証金 slip (one 不課税 line of (delivered − collected) × deposit, negative for a refund), corrected when the
 * movement is edited and deleted with it; the slips' sum is 預け本数 × deposit and `cl_uri_zan` follows. A delivery
 * round's stops move bottles the same way. Both dialects.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { dialects, resourceCalls, useHarness } from './harness';

type Row = Record<string, string | number | null>;
const DEPOSIT = 1000;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const { save, created, problem } = resourceCalls(h);
    const ids = { water: 0, plain: 0, client: 0 };
    const zan = async (cl: number): Promise<number> => Number((await h.post<Row>('client_dtl', { id: cl })).body[0].cl_uri_zan);
    const depositSlips = (cl: number) => h.database.db.selectFrom('sales').select(['sl_id', 'sl_bt_id', 'sl_kind', 'sl_total', 'sl_date', 'sl_net_total', 'sl_tax_total'])
      .where('sl_cl_id', '=', cl).where('deleted', '=', 0).where('sl_bt_id', 'is not', null).orderBy('sl_id').execute();
    const held = async (cl: number): Promise<number> => {
      const [balance] = (await h.post<Row>('bottle_balance', { cl_id: cl })).body.filter((b) => b.bt_it_id === ids.water);
      return Number(balance?.bt_held ?? 0);
    };
    /** The deposit balance (Σ live deposit slips) equals 預け本数 × deposit, and the receivable holds it. */
    const agrees = async (cl: number, bottles: number): Promise<void> => {
      assert.equal(await held(cl), bottles);
      const slips = await depositSlips(cl);
      assert.equal(slips.reduce((sum, s) => sum + Number(s.sl_total), 0), bottles * DEPOSIT);
      assert.equal(await zan(cl), bottles * DEPOSIT);
      const balance = (await h.post<Row>('bottle_balance', { cl_id: cl })).body.find((b) => b.bt_it_id === ids.water);
      assert.equal(Number(balance?.deposit_total ?? 0), bottles * DEPOSIT, 'the bottle ledger\'s deposits agree');
    };

    before(async () => {
      ids.water = Number((await created('item', { code: 'DP-W12', name: '保証金テスト天然水 12L', unit: '本', price: 1300, tax_class: 'reduced', stock_tracked: 0, returnable: 1, deposit: DEPOSIT })).it_id);
      ids.plain = Number((await created('item', { code: 'DP-W08', name: '保証金なし天然水 8L', unit: '本', price: 900, tax_class: 'reduced', stock_tracked: 0, returnable: 1 })).it_id);
      ids.client = Number((await created('client', { status: '1', tel_1: '03-1234-5678', pref: '東京都', co_name: '保証金テスト商店', zei_ten: '4' })).cl_id);
    });

    it('delivering takes the deposit, collecting refunds it, edits and deletes correct the slip', async () => {
      const cl = ids.client;
      const first = await created('bottle', { cl_id: cl, it_id: ids.water, move_date: '2026-05-01', delivered: 3 });
      assert.equal(first.bt_deposit, 3 * DEPOSIT, 'the movement\'s deposit is derived');
      let slips = await depositSlips(cl);
      assert.equal(slips.length, 1);
      assert.deepEqual([slips[0].sl_bt_id, slips[0].sl_kind, slips[0].sl_date, slips[0].sl_total, slips[0].sl_tax_total], [first.bt_id, 'deposit', '2026-05-01', 3000, 0]);
      const [line] = (await h.post<Row>('sales_detail_lst', { sl_id: slips[0].sl_id })).body;
      assert.deepEqual([line.sld_name, line.sld_quantity, line.sld_price, line.sld_amount, line.sld_tax_class, line.sld_tax_rate], ['容器保証金 保証金テスト天然水 12L', 3, DEPOSIT, 3000, 'outside', 0]);
      await agrees(cl, 3);

      // An exchange (2 out, 2 back) moves no deposit: no slip.
      await created('bottle', { cl_id: cl, it_id: ids.water, move_date: '2026-05-08', delivered: 2, collected: 2 });
      assert.equal((await depositSlips(cl)).length, 1);

      // Collecting back refunds: a negative line.
      const back = await created('bottle', { cl_id: cl, it_id: ids.water, move_date: '2026-05-15', collected: 2 });
      slips = await depositSlips(cl);
      const refund = slips.find((s) => s.sl_bt_id === back.bt_id)!;
      assert.equal(refund.sl_total, -2 * DEPOSIT);
      await agrees(cl, 1);

      // The deposit slip is the movement's: neither edited nor deleted by hand (the refusal says where it comes from).
      const refundSlip = (await h.post<Row>('sales_dtl', { id: refund.sl_id })).body[0];
      const handEdit = await save('sales', { biko: '手で直す', lines: [{ name: '容器保証金', quantity: 1, price: -1, tax_class: 'outside' }], modified: refundSlip.modified }, Number(refund.sl_id));
      assert.equal(handEdit.status, 400, handEdit.text);
      assert.match(problem(handEdit).error, /^売上伝票 SL\d{8}-\d{6} はボトルの受け払い（容器保証金）から作られた伝票のため、手で変更・削除できません。ボトルの受け払いを直すと、この伝票も直ります。$/);
      const handDelete = await h.post('sales_del', { id: refund.sl_id });
      assert.equal(handDelete.status, 400, handDelete.text);
      assert.match(problem(handDelete).error, /ボトルの受け払い（容器保証金）から作られた伝票のため/);
      assert.deepEqual((await h.post<Row>('sales_dtl', { id: refund.sl_id })).body[0], refundSlip, 'nothing changed');
      await agrees(cl, 1);

      // Editing the movement corrects its slip (no second slip).
      const edited = await save('bottle', { collected: 1, modified: back.modified }, Number(back.bt_id));
      assert.equal(edited.status, 200, edited.text);
      slips = await depositSlips(cl);
      assert.equal(slips.length, 2);
      assert.equal(slips.find((s) => s.sl_bt_id === back.bt_id)!.sl_total, -DEPOSIT);
      await agrees(cl, 2);

      // An edit the ledger refuses (more back than held) changes nothing: not the movement, not the money.
      const [again] = (await h.post<Row>('bottle_dtl', { id: back.bt_id })).body;
      const refused = await save('bottle', { collected: 9, modified: again.modified }, Number(back.bt_id));
      assert.equal(refused.status, 400, refused.text);
      assert.match(problem(refused).error, /預け本数/);
      await agrees(cl, 2);

      // Deleting the movement deletes its slip.
      const deleted = await h.post('bottle_del', { id: back.bt_id });
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal((await depositSlips(cl)).length, 1);
      await agrees(cl, 3);

      // A movement of an item without a deposit holds none (a typed one is not taken: the field is read-only) and writes no slip.
      const plain = await created('bottle', { cl_id: cl, it_id: ids.plain, move_date: '2026-05-20', delivered: 4, deposit: 4000 });
      assert.equal(plain.bt_deposit, 0);
      assert.equal((await depositSlips(cl)).length, 1);
      await agrees(cl, 3);
    });

    it('a delivery round\'s stops move the deposit with the bottles', async () => {
      const cl = Number((await created('client', { status: '1', tel_1: '03-2222-3333', pref: '東京都', co_name: '保証金配送テスト', zei_ten: '2' })).cl_id);
      const round = await created('hodreport', { date: '2026-05-11', usr_id: h.fixtures.users.admin.id, stops: [{ cl_id: cl, it_id: ids.water, delivered: 4, collected: 0, result: 'delivered' }] });
      await agrees(cl, 4);
      const changed = await save('hodreport', { modified: round.modified, stops: [{ cl_id: cl, it_id: ids.water, delivered: 4, collected: 1, result: 'delivered' }] }, Number(round.hr_id));
      assert.equal(changed.status, 200, changed.text);
      await agrees(cl, 3);
      const deleted = await h.post('hodreport_del', { id: round.hr_id });
      assert.equal(deleted.status, 200, deleted.text);
      assert.equal((await depositSlips(cl)).length, 0);
      await agrees(cl, 0);
    });
  });
}
