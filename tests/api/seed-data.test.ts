/**
 * The demo data generator gives realistic, deterministic Japanese customers (run by the API suite).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MASTER_TABLES, SEED_USERS, generateClients, generateOrders } from '../../server/seed/data/generate';
import { katakanaToRomaji } from '../../server/seed/data/japanese';
import { PREFECTURES, PREFECTURE_DETAILS, prefectureOfAddress } from '../../server/seed/data/prefectures';

test('demo data: deterministic, realistic Japanese customers across all prefectures', () => {

  const KANA = /^[\u30A1-\u30FA\u30FC ]*$/;
  const ZIP = /^\d{3}-\d{4}$/;
  const TEL = /^0\d{1,4}-\d{1,4}-\d{4}$/;
  const DATE = /^\d{4}-\d{2}-\d{2}$/;

  // determinism
  const a = generateClients(300, 1);
  const b = generateClients(300, 1);
  assert.equal(a.length, 300);
  assert.deepEqual(a, b, 'same seed gives the same clients');
  assert.notDeepEqual(generateClients(50, 2), a.slice(0, 50), 'another seed gives other clients');
  assert.deepEqual(generateOrders(300, 500), generateOrders(300, 500), 'same seed gives the same orders');

  // prefectures
  assert.equal(PREFECTURES.length, 47);
  assert.deepEqual(PREFECTURES.map((p) => p.code), Array.from({ length: 47 }, (_, i) => String(i + 1).padStart(2, '0')));
  for (const p of PREFECTURE_DETAILS) {
    assert.ok(p.cities.length >= 3 && p.cities.length <= 6, `${p.name}: 3–6 cities`);
    for (const c of p.cities) {
      assert.ok(c.towns.length + c.banchi.length > 0, `${c.name}: towns`);
      assert.ok(c.zips.every((z) => /^\d{3}$/.test(z)), `${c.name}: zips`);
      assert.ok(/^0\d{1,4}$/.test(c.tel), `${c.name}: area code`);
    }
  }
  assert.equal(prefectureOfAddress('神奈川県横浜市中区本町1-2-3'), '神奈川県');
  assert.equal(prefectureOfAddress('和歌山県和歌山市七番丁23'), '和歌山県');
  assert.equal(prefectureOfAddress('鹿児島県鹿児島市山下町11-1'), '鹿児島県');
  assert.equal(prefectureOfAddress('〒100-0005 東京都千代田区丸の内1-1-1'), '東京都');
  assert.equal(prefectureOfAddress('京都府京都市下京区東塩小路町721-1'), '京都府');
  assert.equal(prefectureOfAddress('千代田区丸の内'), undefined);

  // every prefecture is used over 2000 clients
  const many = generateClients(2000, 1);
  assert.deepEqual(many.slice(0, 300), a, 'a longer run starts with the same clients');
  const usedPrefs = new Set(many.map((c) => c.pref));
  assert.equal(usedPrefs.size, 47, `all 47 prefectures used (got ${usedPrefs.size})`);

  const byName = new Map(PREFECTURE_DETAILS.map((p) => [p.name, p]));
  for (const c of many) {
    for (const k of [c.co_name_kana, c.name_kana, c.shipping_name_kana, c.billing_name_kana]) {
      assert.match(k, KANA, `kana: ${k}`);
    }
    for (const z of [c.zipcode, c.shipping_zipcode, c.billing_zipcode]) assert.match(z, ZIP);
    for (const t of [c.tel_1, c.shipping_tel, c.billing_tel]) assert.match(t, TEL);
    for (const t of [c.tel_2, c.fax, c.shipping_fax, c.billing_fax]) if (t !== '') assert.match(t, TEL);
    assert.equal(c.tel_1.replace(/-/g, '').length, 10);
    // zip prefix and area code belong to the city
    const pref = byName.get(c.pref);
    assert.ok(pref, c.pref);
    const city = pref.cities.find((x) => x.name === c.city);
    assert.ok(city, `${c.pref}${c.city}`);
    assert.ok(city.zips.includes(c.zipcode.slice(0, 3)), `${c.city} ${c.zipcode}`);
    assert.ok(c.tel_1.startsWith(`${city.tel}-`), `${c.city} ${c.tel_1}`);
    assert.ok(Math.abs(c.lat - city.lat) < 0.05 && Math.abs(c.lng - city.lng) < 0.05, `${c.city} lat/lng`);
    assert.equal(prefectureOfAddress(`${c.pref}${c.city}${c.address}`), c.pref);
    // codes
    assert.ok(['1', '2', '9'].includes(c.status));
    assert.equal(c.cancel_date !== '', c.status === '9');
    assert.match(c.contract_date, DATE);
    assert.match(c.contract_start_date, DATE);
    assert.ok(c.contract_start_date >= c.contract_date && c.contract_start_date >= '2015-01-01' && c.contract_start_date <= '2026-12-31');
    if (c.cancel_date !== '') assert.ok(c.cancel_date > c.contract_start_date && c.cancel_date <= '2026-11-21');
    if (c.haiso_flag === '1') {
      assert.ok(c.next_shipping_date >= '2026-11-22' && c.next_shipping_date <= '2026-12-31', c.next_shipping_date);
      assert.ok(['1', '2', '3'].includes(c.haiso_type));
    } else {
      assert.equal(c.next_shipping_date, '');
      assert.equal(c.haiso_type, '0');
    }
    assert.ok(['2', '4', '6'].includes(c.haiso_num));
    assert.equal(c.pm_id, c.collect_type);
    assert.ok(MASTER_TABLES.mt_pmt_method?.some((m) => m.value === c.collect_type));
    assert.ok(MASTER_TABLES.mt_area?.some((m) => m.value === c.area));
    assert.ok(Number(c.uri_zan) >= 0 && Number(c.uri_zan) <= 300000);
    assert.equal(c.co_name === '', c.riyou === '1');
    if (c.email !== '') assert.match(c.email, /^[a-z0-9._-]+@[a-z0-9.-]+\.[a-z]+$/);
  }

  // unique company names among the first 300
  const names = a.map((c) => c.co_name).filter((n) => n !== '');
  assert.equal(new Set(names).size, names.length, 'first 300 company names are unique');
  const ratio = names.length / a.length;
  assert.ok(ratio > 0.65 && ratio < 0.85, `about 75 % companies (got ${ratio})`);

  // romaji
  assert.equal(katakanaToRomaji('サトウ'), 'sato');
  assert.equal(katakanaToRomaji('イノウエ'), 'inoue');
  assert.equal(katakanaToRomaji('チュウオウ'), 'chuo');
  assert.equal(katakanaToRomaji('ショウジ'), 'shoji');
  assert.equal(katakanaToRomaji('オオタ'), 'ota');
  assert.equal(katakanaToRomaji('ハットリ'), 'hattori');

  // masters, users, orders
  assert.ok((MASTER_TABLES.mt_bank?.length ?? 0) >= 20);
  assert.equal(SEED_USERS.length, 8);
  const orders = generateOrders(300, 1000);
  assert.equal(orders.length, 1000);
  for (const o of orders) {
    assert.ok(o.clientIndex >= 0 && o.clientIndex < 300);
    assert.ok(o.date >= '2026-05-01' && o.date <= '2026-11-21');
    assert.ok(o.deliveryDate > o.date && o.deliveryDate >= '2026-05-02');
    if (o.status === 'shipped' || o.status === 'processed') assert.ok(o.deliveryDate <= '2026-11-21', `${o.status} delivered ${o.deliveryDate}`);
    else assert.ok(o.deliveryDate >= '2026-11-21', `${o.status} delivered ${o.deliveryDate}`);
    assert.ok(o.lines.length > 0 && o.lines.every((l) => Number.isInteger(l.quantity) && l.quantity > 0 && l.code !== ''));
  }
  assert.ok(orders.filter((o) => o.status === 'processed').length > orders.length / 2);
});
