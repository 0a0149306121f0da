/**
 * The tiny known dataset of the API tests: one user per role and a handful of customers with
 * distinctive names (full-width, half-width kana, `%` and `_`), plus orders for the last-order lookup.
 */
import type { Kysely } from 'kysely';
import { clientResource } from '../../lib/resources/client';
import { orderResource } from '../../lib/resources/order';
import { createUser } from '../../server/auth/users';
import type { Database } from '../../server/db/schema';
import { saveRecord } from '../../server/resources/records';
import { seedMasters } from '../../server/seed/seed';

export interface Account {
  email: string;
  password: string;
  id: number;
  role: string;
}

export interface Fixtures {
  users: { admin: Account; sales: Account; delivery: Account; accounting: Account };
  clients: { abc: number; halfAbc: number; yamada: number; percent: number; underscore: number; contract: number };
  /** Orders of the ＡＢＣ customer, oldest first. */
  orders: number[];
}

const STAFF_PASSWORD = 'staff-pass-2026';

/** Inserts the fixture data through the server's own write path. */
export async function seedFixtures(db: Kysely<Database>): Promise<Fixtures> {
  const account = async (email: string, role: string, name: string, password = STAFF_PASSWORD): Promise<Account> => ({
    email, password, role, id: await createUser(db, { email, password, name, kana: 'テスト', role }),
  });
  const admin = await account('admin@example.jp', '管理', '管理 太郎', 'admin-pass-2026');
  const users = {
    admin,
    sales: await account('sales@example.jp', '営業', '営業 花子'),
    delivery: await account('haiso@example.jp', '配送', '配送 次郎'),
    accounting: await account('keiri@example.jp', '経理', '経理 三郎'),
  };
  const ctx = { db, userId: admin.id, call: 'fixture' };
  const client = async (values: Record<string, string>) =>
    Number((await saveRecord(ctx, clientResource, undefined, { status: '1', tel_1: '03-1234-5678', ...values })).cl_id);
  const clients = {
    abc: await client({ co_name: '株式会社ＡＢＣ商事', co_name_kana: 'カブシキガイシャエービーシーショウジ', name: '山本 一郎', pref: '東京都', city: '千代田区' }),
    halfAbc: await client({ co_name: 'abc物産', co_name_kana: 'エービーシーブッサン', name: '佐藤 次郎', pref: '大阪府', city: '大阪市北区' }),
    yamada: await client({ co_name: '山田商店', co_name_kana: 'ﾔﾏﾀﾞｼｮｳﾃﾝ', name: '山田 太郎', pref: '北海道', city: '札幌市' }),
    percent: await client({ co_name: '100%天然水の会', co_name_kana: 'テンネンスイノカイ', name: '', pref: '静岡県', city: '富士宮市' }),
    underscore: await client({ co_name: 'water_server商会', co_name_kana: 'ウォーターサーバーショウカイ', name: '', pref: '愛知県', city: '名古屋市' }),
    contract: await client({ co_name: '契約テスト株式会社', co_name_kana: 'ケイヤクテスト', contract_date: '2026-03-15', next_shipping_date: '2026-04-01', pref: '福岡県', city: '福岡市' }),
  };
  await seedMasters(db);
  const orders: number[] = [];
  for (const date of ['2026-01-10', '2026-02-10', '2026-03-10']) {
    const saved = await saveRecord(ctx, orderResource, undefined, { cl_id: clients.abc, date, status: 'processed', biko: `定期 ${date}` });
    orders.push(Number(saved.od_id));
  }
  await saveRecord(ctx, orderResource, undefined, { cl_id: clients.halfAbc, date: '2026-02-01', status: 'pending', biko: '' });
  return { users, clients, orders };
}
