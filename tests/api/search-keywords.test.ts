/**
 * Finding things (issue 10): the keyword folds hyphens, spaces, hiragana/katakana and widths on both
 * sides (and migration 0018 re-keys stored rows, the keyword indexes following); names sort by their
 * reading; カナ, 番地, 送り状番号 and 法人番号 are converted on save; a master value in use and a record
 * others point at are refused naming how many records use them and where to find them; the order search
 * finds a customer's orders by the customer and by phone.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { rekeySearch } from '../../server/db/migrations/0018-search-keys';
import { dialects, useHarness } from './harness';

type Row = Record<string, string | number | null>;
type Refusal = { error: string; usedBy?: { resource: string; label: string; count: number; filters: Record<string, unknown> }[] };

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);
    const save = async (name: string, postData: Record<string, unknown>, id?: number) => {
      const answer = await h.post<Row>(`${name}_save`, { id, postData: JSON.stringify(postData) });
      assert.equal(answer.status, 200, answer.text);
      return answer.body[0];
    };
    const ids = async (call: string, params: Record<string, string | number>) =>
      (await h.post<Row>(call, { n: 100, ...params })).body.map((r) => Number(r[`${call.startsWith('order') ? 'od' : 'cl'}_id`]));

    let suzuki = 0;
    before(async () => {
      const row = await save('client', {
        status: '1', co_name: '天然水サービス', co_name_kana: 'テンネンスイサービス', name: '鈴木 花子', name_kana: 'スズキ ハナコ', tel_1: '06-6543-2109', pref: '大阪府', city: '大阪市',
      });
      suzuki = Number(row.cl_id);
    });

    describe('keyword folding', () => {
      const finds = async (kw: string) => (await ids('client_lst', { kw })).includes(suzuki);
      it('finds a phone number typed without hyphens, in full width or with the IME long-vowel dash', async () => {
        for (const kw of ['0665432109', '０６６５４３２１０９', '06ー6543ー2109', '06－6543－2109', '6543-2109']) assert.ok(await finds(kw), kw);
      });
      it('finds a name typed without its space', async () => {
        assert.ok(await finds('鈴木花子'));
        assert.ok(await finds('スズキハナコ'));
      });
      it('finds kana typed in hiragana or half-width kana', async () => {
        for (const kw of ['てんねんすい', 'すずき はなこ', 'ﾃﾝﾈﾝｽｲ', 'すず']) assert.ok(await finds(kw), kw);
      });
      it('still needs every term, and terms never join two fields', async () => {
        assert.ok(!(await finds('てんねんすい 札幌')));
        // 「ハナコ」 ends the name and 「06」 starts the phone: a term spanning both must not match.
        assert.ok(!(await finds('ハナコ06')));
      });
    });

    describe('migration 0018 re-keys stored rows', () => {
      it('turns old search keys into folded ones, and the keyword index follows', async () => {
        const { db } = h.database;
        await sql`UPDATE client SET cl_search = ${'天然水サービス スズキ ハナコ 06-6543-2109'} WHERE cl_id = ${suzuki}`.execute(db);
        assert.equal((await ids('client_lst', { kw: '0665432109' })).includes(suzuki), false, 'the old key does not fold');
        await rekeySearch(db);
        const row = await db.selectFrom('client').select('cl_search').where('cl_id', '=', suzuki).executeTakeFirstOrThrow();
        assert.match(String(row.cl_search), /0665432109/);
        assert.ok((await ids('client_lst', { kw: '0665432109' })).includes(suzuki));
        assert.ok((await ids('client_lst', { kw: 'すずきはなこ' })).includes(suzuki));
      });
    });

    describe('sorting by a name sorts by its reading', () => {
      it('orders 会社名 by 会社名カナ, then the name', async () => {
        const names = [['渡辺商会', 'ワタナベショウカイ'], ['阿部商店', 'アベショウテン'], ['伊藤工業', 'イトウコウギョウ'], ['井上物産', 'イノウエブッサン']];
        for (const [co, kana] of names) await save('client', { status: '1', co_name: co, co_name_kana: kana, tel_1: '011-111-1111', city: '読み順市' });
        const sorted = async (odr: string) =>
          (await h.post<Row>('client_lst', { kw: '読み順市', col: 'cl_co_name', odr })).body.map((r) => r.cl_co_name);
        assert.deepEqual(await sorted('asc'), ['阿部商店', '伊藤工業', '井上物産', '渡辺商会']);
        assert.deepEqual(await sorted('desc'), ['渡辺商会', '井上物産', '伊藤工業', '阿部商店']);
      });
    });

    describe('conversion on save', () => {
      it('turns hiragana and half-width kana into katakana, full-width digits into half-width', async () => {
        const row = await save('client', {
          status: '1', co_name: '変換テスト', co_name_kana: 'へんかんてすと', name: '高橋 一', name_kana: 'ﾀｶﾊｼ ﾊｼﾞﾒ', tel_1: '03-1111-2222',
          address: '丸の内１－２－３', co_id: '１２３４５６７８９０１２３',
        });
        assert.equal(row.cl_co_name_kana, 'ヘンカンテスト');
        assert.equal(row.cl_name_kana, 'タカハシ ハジメ');
        assert.equal(row.cl_address, '丸の内1-2-3');
        assert.equal(row.cl_co_id, '1234567890123');
        const order = await save('order', { cl_id: suzuki, date: '2026-05-01', tracking_no: '１２３４－５６７８－９０１３', ship_address: '梅田２丁目３番' });
        assert.equal(order.od_tracking_no, '1234-5678-9013');
        assert.equal(order.od_ship_address, '梅田2丁目3番');
      });
      it('still refuses what is not kana', async () => {
        const answer = await h.post<Refusal>('client_save', { postData: JSON.stringify({ status: '1', co_name: 'x', co_name_kana: '漢字', tel_1: '03-1111-2222' }) });
        assert.equal(answer.status, 400);
        assert.equal(answer.body[0].error, '会社名カナはカタカナで入力してください。');
      });
    });

    describe('a master value in use', () => {
      it('is refused naming how many records of which resource use it, with the filters that list them', async () => {
        const method = await save('master_option', { table: 'mt_pmt_method', value: 'TEST9', text: '試験払い' });
        const current = (await h.post<Row>('client_dtl', { id: suzuki })).body[0];
        await save('client', { pm_id: 'TEST9', collect_type: 'TEST9', modified: current.modified }, suzuki);
        await save('order', { cl_id: suzuki, date: '2026-05-02', pm_id: 'TEST9' });
        const refused = await h.post<Refusal>('master_option_del', { id: method.mo_id });
        assert.equal(refused.status, 400, refused.text);
        assert.equal(
          refused.body[0].error,
          'この支払方法「試験払い」は顧客（1件）の「支払方法」、顧客（1件）の「回収方法」、受注（1件）の「支払方法」に使われているため削除できません。先にそちらを変更してください。',
        );
        assert.deepEqual(refused.body[0].usedBy, [
          { resource: 'client', label: '顧客', field: 'pm_id', count: 1, filters: { pm_id: ['TEST9'] } },
          { resource: 'client', label: '顧客', field: 'collect_type', count: 1, filters: { collect_type: ['TEST9'] } },
          { resource: 'order', label: '受注', field: 'pm_id', count: 1, filters: { pm_id: ['TEST9'] } },
        ]);
        // The filters of the refusal list exactly those records.
        assert.deepEqual(await ids('client_lst', { postData: JSON.stringify({ pm_id: ['TEST9'] }) }), [suzuki]);
        assert.equal((await ids('order_lst', { postData: JSON.stringify({ pm_id: ['TEST9'] }) })).length, 1);
        const unused = await save('master_option', { table: 'mt_pmt_method', value: 'TEST8', text: '未使用の払い方' });
        assert.equal((await h.post('master_option_del', { id: unused.mo_id })).status, 200);
      });
    });

    describe("a customer's orders", () => {
      it('a refused delete names the orders and answers the filter that lists them', async () => {
        const id = h.fixtures.clients.abc;
        const refused = await h.post<Refusal>('client_del', { id });
        assert.equal(refused.status, 400);
        assert.match(refused.body[0].error, /受注（3件）の「顧客」/);
        const orders = refused.body[0].usedBy?.find((u) => u.resource === 'order');
        assert.deepEqual(orders, { resource: 'order', label: '受注', field: 'cl_id', count: 3, filters: { cl_id: String(id) } });
        assert.deepEqual((await ids('order_lst', { postData: JSON.stringify(orders?.filters) })).sort((a, b) => a - b), h.fixtures.orders);
      });
      it('the order search finds orders by the customer and by a phone number typed any way', async () => {
        const mine = await save('order', { cl_id: suzuki, date: '2026-05-03' });
        const other = await save('order', { cl_id: h.fixtures.clients.yamada, date: '2026-05-03', ship_tel: '092-000-1111' });
        const byClient = await ids('order_lst', { postData: JSON.stringify({ cl_id: String(suzuki) }) });
        assert.ok(byClient.includes(Number(mine.od_id)));
        assert.ok(!byClient.includes(Number(other.od_id)));
        for (const tel of ['0665432109', '06-6543-2109', '０６６５４３２１０９']) {
          const found = await ids('order_lst', { postData: JSON.stringify({ tel }) });
          assert.ok(found.includes(Number(mine.od_id)), tel);
          assert.ok(!found.includes(Number(other.od_id)), tel);
        }
        // The order's own 配送先電話番号 counts too.
        assert.ok((await ids('order_lst', { postData: JSON.stringify({ tel: '0920001111' }) })).includes(Number(other.od_id)));
        const count = await h.post('order_cnt', { postData: JSON.stringify({ tel: '0920001111' }) });
        assert.deepEqual(count.body, [1]);
        const bad = await h.post<Refusal>('order_lst', { postData: JSON.stringify({ tel: 'でんわ' }) });
        assert.equal(bad.status, 400);
        assert.equal(bad.body[0].error, '絞り込み条件「電話番号」の値が正しくありません。');
      });
    });
  });
}
