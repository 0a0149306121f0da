/**
 * Deterministic demo data of the stock area: warehouses, items, water servers (most installed at
 * demo customers, some in stock, in maintenance or disposed) and the bottle ledger of the
 * customers with a server. Pure functions, no I/O; dates are relative to the `today` given.
 */
import { addDays } from '../../../lib/format';
import { defaultNextDue } from '../../../lib/resources/water-server';
import type { TaxClass } from '../../../lib/tax';
import { createRng } from './rng';

export interface SeedWarehouse {
  code: string;
  name: string;
  zipcode: string;
  pref: string;
  address: string;
  tel: string;
  active: number;
  note: string;
  /** The prefecture codes (JIS X 0401) it ships to. */
  region: readonly string[];
}

const codes = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(2, '0'));

export const DEMO_WAREHOUSES: readonly SeedWarehouse[] = [
  { code: 'TKY', name: '東京本社倉庫', zipcode: '136-0082', pref: '東京都', address: '江東区新木場2-14-8', tel: '03-5534-1201', active: 1, note: '本社併設。関東一円の出荷拠点。', region: ['08', '09', '10', '11', '12', '13', '15', '16', '17', '18', '20'] },
  { code: 'YKH', name: '横浜倉庫', zipcode: '230-0053', pref: '神奈川県', address: '横浜市鶴見区大黒町6-3', tel: '045-508-3310', active: 1, note: '', region: ['14', '19', '21', '22', '23'] },
  { code: 'OSK', name: '大阪倉庫', zipcode: '559-0025', pref: '大阪府', address: '大阪市住之江区平林南1-5-22', tel: '06-6686-4420', active: 1, note: '関西・中国・四国向け。', region: [...codes(24, 39)] },
  { code: 'FKO', name: '福岡倉庫', zipcode: '813-0018', pref: '福岡県', address: '福岡市東区香椎浜ふ頭3-2-1', tel: '092-663-7780', active: 1, note: '', region: [...codes(40, 47)] },
  { code: 'SPR', name: '札幌倉庫', zipcode: '003-0030', pref: '北海道', address: '札幌市白石区流通センター4-3-50', tel: '011-862-5510', active: 1, note: '冬季は配送日が前後することがあります。', region: [...codes(1, 7)] },
  { code: 'CHB', name: '旧千葉倉庫', zipcode: '261-0002', pref: '千葉県', address: '千葉市美浜区新港32-1', tel: '043-241-0090', active: 0, note: '2025年に東京本社倉庫へ統合。', region: [] },
];

export interface SeedItem {
  code: string;
  name: string;
  kana: string;
  class: string;
  unit: string;
  price: number;
  cost: number;
  tax_class: TaxClass;
  active: number;
  sort: number;
  returnable: number;
  deposit: number | '';
  stock_tracked: number;
  reorder_point: number | '';
  note: string;
}

const item = (code: string, name: string, kana: string, cls: string, unit: string, price: number, cost: number, tax: SeedItem['tax_class'], extra: Partial<SeedItem> = {}): SeedItem => ({
  code, name, kana, class: cls, unit, price, cost, tax_class: tax, active: 1, sort: 0, returnable: 0, deposit: '', stock_tracked: 1, reorder_point: '', note: '', ...extra,
});

export const DEMO_ITEMS: readonly SeedItem[] = [
  item('W12R', '天然水 12L（リターナブル）', 'テンネンスイ', '10', '本', 1300, 420, 'reduced', { sort: 10, returnable: 1, deposit: 1000, reorder_point: 200 }),
  item('RO12R', 'RO水 12L（リターナブル）', 'アールオースイ', '10', '本', 1100, 330, 'reduced', { sort: 20, returnable: 1, deposit: 1000, reorder_point: 150 }),
  item('W12O', '天然水 12L（ワンウェイ）', 'テンネンスイ ワンウェイ', '20', '本', 1500, 520, 'reduced', { sort: 30, reorder_point: 120 }),
  item('W7O', '天然水 7L（ワンウェイ）', 'テンネンスイ ナナリットル', '20', '本', 980, 340, 'reduced', { sort: 40, reorder_point: 80 }),
  item('SV-RENT', 'サーバーレンタル（月額）', 'サーバーレンタル', '30', '月', 1100, 0, 'standard', { sort: 50, stock_tracked: 0 }),
  item('SV-MAINT', '定期メンテナンス', 'テイキメンテナンス', '40', '回', 3300, 1200, 'standard', { sort: 60, stock_tracked: 0 }),
  item('SHIP', '配送料', 'ハイソウリョウ', '50', '回', 550, 0, 'standard', { sort: 70, stock_tracked: 0, note: '別建ての配送料は標準税率。送料込み価格の水は軽減税率。' }),
  item('DEPOSIT', '容器保証金', 'ヨウキホショウキン', '60', '本', 1000, 0, 'outside', { sort: 80, stock_tracked: 0, note: '預り金（不課税）。' }),
  item('CUP', '紙コップ（100個入）', 'カミコップ', '90', '箱', 330, 150, 'standard', { sort: 90, reorder_point: 30 }),
  item('RACK', 'ボトルラック', 'ボトルラック', '90', '個', 2200, 900, 'standard', { sort: 100, reorder_point: 10 }),
];

/** Models of the demo master (mt_server_model) with their usual monthly rental fee. */
const MODELS: readonly (readonly [string, number])[] = [['AQ-01', 1100], ['AQ-02', 880], ['AQ-03', 1650], ['HT-10', 1320]];

export interface SeedServer {
  serial_no: string;
  model: string;
  status: 'stock' | 'installed' | 'maintenance' | 'disposed';
  sk_id: number | '';
  cl_id: number | '';
  install_date: string;
  last_maintenance_date: string;
  next_due_date: string;
  exchange_date: string;
  rental_fee: number | '';
  note: string;
}

export interface SeedCustomer {
  id: number;
  /** Customer status (mt_status): 1 契約中, 2 休止, 9 解約. */
  status: string;
}

/**
 * Water servers: about four in five installed at active customers (one each, a few with two),
 * the rest in stock, in maintenance or disposed. Installed ones were maintained about yearly;
 * some are behind, so the 期限切れ list has entries.
 * @example generateServers(customers, [1, 2, 3], '2026-11-22', 300)
 */
export function generateServers(customers: readonly SeedCustomer[], warehouses: readonly number[], today: string, count = 300, seed = 3): SeedServer[] {
  const rng = createRng(seed);
  const active = customers.filter((c) => c.status === '1');
  const servers: SeedServer[] = [];
  let customerIndex = 0;
  for (let i = 0; i < count; i++) {
    const [model, fee] = rng.pick(MODELS);
    const year = today.slice(2, 4);
    const serial = `${model.replace('-', '')}-${year}${String(10000 + i * 7 + rng.int(0, 6)).slice(-5)}`;
    const roll = rng.next();
    const status: SeedServer['status'] = roll < 0.8 && customerIndex < active.length ? 'installed' : roll < 0.9 ? 'stock' : roll < 0.95 ? 'maintenance' : 'disposed';
    const server: SeedServer = {
      serial_no: serial, model, status, sk_id: '', cl_id: '', install_date: '', last_maintenance_date: '', next_due_date: '', exchange_date: '',
      rental_fee: rng.chance(0.1) ? 0 : fee, note: '',
    };
    if (status === 'installed') {
      server.cl_id = active[customerIndex].id;
      customerIndex += rng.chance(0.06) ? 0 : 1; // a few customers rent two
      server.install_date = addDays(today, -rng.int(10, 1400));
      const years = Math.floor((Date.parse(today) - Date.parse(server.install_date)) / (365.25 * 86_400_000));
      // Maintained each year since installation; about one in eight is a visit behind.
      const done = rng.chance(0.12) ? Math.max(0, years - 1) : years;
      if (done > 0) server.last_maintenance_date = addDays(server.install_date, done * 365 + rng.int(-20, 20));
      if (server.last_maintenance_date > today) server.last_maintenance_date = today;
      if (years >= 2 && rng.chance(0.15)) {
        server.exchange_date = addDays(server.install_date, rng.int(365, years * 365));
        server.note = '前機の不具合により交換。';
      }
    } else {
      server.sk_id = rng.pick(warehouses);
      if (status === 'maintenance') {
        server.last_maintenance_date = addDays(today, -rng.int(0, 10));
        server.note = rng.pick(['冷水が出ない（コンプレッサー点検中）', '温水ヒーター交換待ち', '回収後の分解洗浄中']);
      }
      if (status === 'disposed') server.note = rng.pick(['耐用年数超過のため廃棄', '落下破損により廃棄', '部品供給終了のため廃棄']);
    }
    server.next_due_date = status === 'installed' ? defaultNextDue(server as unknown as Record<string, unknown>) : '';
    servers.push(server);
  }
  return servers;
}

export interface SeedBottle {
  cl_id: number;
  it_id: number;
  move_date: string;
  delivered: number;
  collected: number;
  held: number;
  deposit: number | '';
  note: string;
}

/**
 * The bottle ledger of customers with an installed server: a first delivery with its deposit,
 * then about monthly deliveries with the empties collected; 預け本数 is the running balance.
 * @example generateBottles([{ cl_id: 5, since: '2026-03-01' }], [{ id: 1, deposit: 1000 }], '2026-11-22')
 */
export function generateBottles(
  customers: readonly { cl_id: number; since: string }[],
  items: readonly { id: number; deposit: number }[],
  today: string,
  seed = 4,
): SeedBottle[] {
  const rng = createRng(seed);
  const out: SeedBottle[] = [];
  for (const customer of customers) {
    if (items.length === 0 || !rng.chance(0.75)) continue;
    const item = rng.pick(items);
    let date = customer.since > addDays(today, -180) ? customer.since : addDays(today, -rng.int(150, 180));
    let held = 0;
    let first = true;
    while (date <= today) {
      const delivered = rng.pick([2, 2, 2, 3, 4]);
      const collected = first ? 0 : Math.min(held, rng.pick([delivered, delivered, delivered - 1, delivered + 1]));
      held += delivered - collected;
      out.push({
        cl_id: customer.cl_id, it_id: item.id, move_date: date, delivered, collected, held,
        deposit: first ? delivered * item.deposit : '', note: first ? '初回お届け（容器保証金お預かり）' : '',
      });
      first = false;
      date = addDays(date, rng.int(26, 35));
    }
  }
  return out;
}
