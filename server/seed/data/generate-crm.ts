/**
 * Deterministic demo data for the customer-relations side and the item master: items, contacts
 * (対応履歴), sales reports (営業報告), daily reports (日報) and agreements (契約). Pure functions, no I/O.
 */
import { createRng, type Rng } from './rng';
import type { SeedClient } from './generate';

const DAY_MS = 86_400_000;
const TODAY = Date.UTC(2026, 10, 21);
const ymd = (ms: number): string => new Date(ms).toISOString().slice(0, 10);
const daysAgo = (n: number): string => ymd(TODAY - n * DAY_MS);

/** The item master of a typical HOD business (unit prices tax-exclusive). */
export const SEED_ITEMS = [
  { code: 'W12-RT', name: '天然水 富士の雫 12L（リターナブル）', kana: 'テンネンスイフジノシズク', class: '10', unit: '本', price: 1200, cost: 380, tax_class: 'reduced', returnable: 1, deposit: 1000, stock_tracked: 1, reorder_point: 200, sort: 10 },
  { code: 'W12-RO', name: 'RO純水 12L（リターナブル）', kana: 'アールオージュンスイ', class: '10', unit: '本', price: 980, cost: 260, tax_class: 'reduced', returnable: 1, deposit: 1000, stock_tracked: 1, reorder_point: 200, sort: 20 },
  { code: 'W7-RT', name: '天然水 富士の雫 7L（リターナブル）', kana: 'テンネンスイフジノシズク', class: '10', unit: '本', price: 800, cost: 250, tax_class: 'reduced', returnable: 1, deposit: 800, stock_tracked: 1, reorder_point: 100, sort: 30 },
  { code: 'W12-OW', name: '天然水 阿蘇の恵み 12L（ワンウェイ）', kana: 'テンネンスイアソノメグミ', class: '20', unit: '本', price: 1450, cost: 520, tax_class: 'reduced', returnable: 0, deposit: 0, stock_tracked: 1, reorder_point: 150, sort: 40 },
  { code: 'W9-OW', name: '天然水 北アルプス 9.5L（ワンウェイ）', kana: 'テンネンスイキタアルプス', class: '20', unit: '本', price: 1280, cost: 460, tax_class: 'reduced', returnable: 0, deposit: 0, stock_tracked: 1, reorder_point: 100, sort: 50 },
  { code: 'W500-24', name: '天然水 500ml ×24本', kana: 'テンネンスイ', class: '20', unit: '箱', price: 2160, cost: 900, tax_class: 'reduced', returnable: 0, deposit: 0, stock_tracked: 1, reorder_point: 50, sort: 60 },
  { code: 'SV-RENT-S', name: 'サーバーレンタル料 スタンダード（月額）', kana: 'サーバーレンタルリョウ', class: '30', unit: '月', price: 500, cost: 0, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 100 },
  { code: 'SV-RENT-P', name: 'サーバーレンタル料 プレミアム（月額）', kana: 'サーバーレンタルリョウ', class: '30', unit: '月', price: 1000, cost: 0, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 110 },
  { code: 'MT-ANNUAL', name: '年次メンテナンス料', kana: 'ネンジメンテナンスリョウ', class: '40', unit: '回', price: 3000, cost: 1200, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 200 },
  { code: 'MT-EXCH', name: 'サーバー交換手数料', kana: 'サーバーコウカンテスウリョウ', class: '40', unit: '回', price: 5000, cost: 2000, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 210 },
  { code: 'FEE-SHIP', name: '配送手数料', kana: 'ハイソウテスウリョウ', class: '50', unit: '回', price: 300, cost: 0, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 300 },
  { code: 'FEE-PAUSE', name: '休止手数料', kana: 'キュウシテスウリョウ', class: '50', unit: '回', price: 800, cost: 0, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 310 },
  { code: 'FEE-CANCEL', name: '解約手数料', kana: 'カイヤクテスウリョウ', class: '50', unit: '回', price: 10000, cost: 0, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 320 },
  { code: 'DEP-BOTTLE', name: '容器保証金', kana: 'ヨウキホショウキン', class: '60', unit: '本', price: 1000, cost: 0, tax_class: 'exempt', returnable: 0, deposit: 0, stock_tracked: 0, reorder_point: 0, sort: 400 },
  { code: 'CUP-100', name: '紙コップ 100個入', kana: 'カミコップ', class: '90', unit: '箱', price: 450, cost: 200, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 1, reorder_point: 30, sort: 500 },
  { code: 'STAND-01', name: 'ボトルスタンド', kana: 'ボトルスタンド', class: '90', unit: '台', price: 3800, cost: 1500, tax_class: 'standard', returnable: 0, deposit: 0, stock_tracked: 1, reorder_point: 5, sort: 510 },
].map((item) => ({ ...item, active: 1, note: '' }));

export interface SeedStaff {
  id: number;
  role: string;
}

const CONTACT_SUBJECTS: readonly (readonly [string, string, string])[] = [
  ['1', '配送日の変更について', '次回の配送日を一週間後ろにずらしてほしいとのご依頼。'],
  ['2', 'ボトルの追加注文', '来客が増えるため、次回のお届けを 2 本追加してほしいとのこと。'],
  ['3', '不在時の置き場所について', '不在の場合は玄関横の物置に置いてほしいとのご要望。'],
  ['4', 'サーバーの温水が出ない', '温水スイッチを確認いただくよう案内。改善しない場合は訪問点検。'],
  ['4', 'サーバーから水漏れ', 'ボトル差込口からの水漏れ。交換用サーバーの手配を案内。'],
  ['5', '長期不在による休止の相談', '海外出張のため 2 か月間の休止を希望。休止手数料について説明。'],
  ['5', '解約の申し出', '引っ越しに伴い解約を希望。サーバー回収日を調整。'],
  ['6', '請求金額の確認', '先月の請求額が多いとのお問い合わせ。追加注文分を説明し了承いただく。'],
  ['6', '支払方法の変更', '口座振替からクレジットカードへの変更手続きを案内。'],
  ['7', '配送員の対応について', '配送時の対応が丁寧だったとのお褒めの言葉。担当に共有。'],
  ['1', '新しい水の種類について', 'RO 純水と天然水の違いについてのお問い合わせ。パンフレットを送付。'],
  ['2', '空ボトルの回収依頼', '空ボトルが溜まっているため次回配送時に回収を依頼。'],
];
const CALLERS = ['ご本人', '総務ご担当者', '受付の方', 'ご家族', '店長', '事務ご担当者'];

/** Contacts spread over the last half year, most of them done, the recent ones still open. */
export function generateContacts(clientIds: readonly number[], staff: readonly SeedStaff[], count: number, seed = 31) {
  const rng = createRng(seed);
  const handlers = staff.filter((s) => s.role !== '経理');
  return Array.from({ length: count }, () => {
    const age = rng.int(0, 180);
    const [category, subject, content] = rng.pick(CONTACT_SUBJECTS);
    const status = age > 14 ? '3' : age > 3 ? rng.pick(['2', '3', '3']) : rng.pick(['1', '1', '2']);
    return {
      cl_id: rng.pick(clientIds),
      uketsuke_date: daysAgo(age),
      channel: rng.pick(['1', '1', '1', '2', '2', '6', '5']),
      caller: rng.pick(CALLERS),
      category,
      subject,
      content,
      usr_id: rng.pick(handlers).id,
      status,
      follow_date: status === '3' ? '' : daysAgo(age - rng.int(2, 10)),
      done_date: status === '3' ? daysAgo(Math.max(0, age - rng.int(0, 3))) : '',
    };
  }).sort((a, b) => (a.uketsuke_date < b.uketsuke_date ? -1 : 1));
}

const REPORT_TEXTS: readonly (readonly [string, string, string])[] = [
  ['1', '新規設置のご提案', 'オフィス移転に合わせてサーバー 2 台の設置を提案。来月決裁予定。'],
  ['2', '定期配送本数の見直し', '夏場の消費増に合わせて配送本数を 4 本から 6 本に増やす方向で調整。'],
  ['1', 'サーバー入替のご案内', '設置から 3 年経過のため省エネモデルへの入替を案内。前向きに検討中。'],
  ['4', 'オンラインでの商品説明', 'RO 純水への切替メリットを説明。サンプルを送付することに。'],
  ['1', '年次メンテナンス訪問', 'メンテナンス実施。あわせて追加ボトルの注文をいただいた。'],
  ['2', '休止中のお客様へのフォロー', '再開時期を確認。来月から配送再開の予定。'],
  ['5', '地域イベントでの試飲会', '試飲会で 12 件の見込み客を獲得。後日訪問予定。'],
];

export function generateReports(clientIds: readonly number[], staff: readonly SeedStaff[], count: number, seed = 37) {
  const rng = createRng(seed);
  const sales = staff.filter((s) => s.role === '営業' || s.role === '管理');
  return Array.from({ length: count }, () => {
    const age = rng.int(0, 150);
    const [kind, title, content] = rng.pick(REPORT_TEXTS);
    const result = rng.pick(['1', '2', '3', '4', '5', '6', '6']);
    const open = result !== '4' && result !== '5';
    return {
      cl_id: rng.pick(clientIds),
      report_date: daysAgo(age),
      usr_id: rng.pick(sales).id,
      kind,
      title,
      content,
      result,
      next_action: open ? rng.pick(['見積書を送付する', '再訪問して決裁状況を確認', 'サンプルの感想を伺う', '電話でフォロー']) : '',
      next_date: open ? daysAgo(age - rng.int(5, 20)) : '',
    };
  }).sort((a, b) => (a.report_date < b.report_date ? -1 : 1));
}

const DAILY_CONTENT: Readonly<Record<string, readonly string[]>> = {
  営業: ['既存顧客 3 件訪問、新規 1 件提案。', '午前は見積作成、午後は事業所 2 件訪問。', '展示会準備と既存顧客への電話フォロー。'],
  配送: ['担当ルートの定期配送を完了。不在 2 件は再配達手配済み。', '配送 28 件、空ボトル回収 41 本。', '午前中に配送完了、午後は倉庫で積み込み作業。'],
  管理: ['月次締めの準備と請求書の確認。', 'スタッフとの面談、配送ルートの見直し。', '新人研修の資料作成。'],
  経理: ['入金消込と口座振替データの確認。', '請求書発行と未入金先への連絡。', '月次の売上集計。'],
};

/** One report per staff member per working day over the last four weeks (weekends off). */
export function generateDailies(staff: readonly SeedStaff[], days = 28, seed = 41) {
  const rng: Rng = createRng(seed);
  const out = [];
  for (let age = days; age >= 1; age--) {
    const dow = new Date(TODAY - age * DAY_MS).getUTCDay();
    if (dow === 0 || dow === 6) continue;
    for (const person of staff) {
      if (rng.chance(0.08)) continue;
      const delivery = person.role === '配送';
      out.push({
        usr_id: person.id,
        report_date: daysAgo(age),
        start_time: rng.pick(['8:30', '9:00', '9:00']),
        end_time: rng.pick(['17:30', '18:00', '18:30']),
        visits: person.role === '営業' ? rng.int(1, 6) : 0,
        deliveries: delivery ? rng.int(18, 35) : 0,
        new_contracts: person.role === '営業' && rng.chance(0.2) ? 1 : 0,
        content: rng.pick(DAILY_CONTENT[person.role] ?? DAILY_CONTENT['管理']),
        issues: rng.chance(0.3) ? rng.pick(['駐車場所の確保が難しいお客様あり。', '在庫の 12L ボトルが少なくなっています。', '特になし。']) : '',
        plan: rng.pick(['本日の続きと定期ルート。', '午前に訪問 2 件、午後は事務処理。', '配送ルート B 班のサポート。']),
        manager_comment: age > 3 && rng.chance(0.6) ? rng.pick(['お疲れさまでした。', '引き続きよろしくお願いします。', '在庫の件、発注済みです。']) : '',
        checked: age > 3 && rng.chance(0.8) ? 1 : 0,
      });
    }
  }
  return out;
}

/** One agreement per customer that rents or bought a server, from the customer's contract fields. */
export function generateAgreements(clients: readonly (SeedClient & { id: number })[], seed = 43) {
  const rng = createRng(seed);
  return clients
    .filter((c) => c.contract_type !== '' && c.contract_date !== '')
    .map((c, i) => {
      const rental = c.contract_type === '1';
      const cancelled = c.cancel_date !== '';
      const count = Math.max(1, Number(c.use_num) || 1);
      return {
        cl_id: c.id,
        agreement_no: `AG-${c.contract_date.slice(0, 4)}-${String(i + 1).padStart(5, '0')}`,
        contract_type: c.contract_type,
        status: cancelled ? '9' : c.status === '2' ? '2' : '1',
        contract_date: c.contract_date,
        start_date: c.contract_start_date || c.contract_date,
        end_date: '',
        server_model: rng.pick(['AQ-01', 'AQ-01', 'AQ-02', 'AQ-03', 'HT-10']),
        server_count: count,
        rental_fee: rental ? rng.pick([0, 500, 500, 1000]) * count : 0,
        maintenance_fee: rental ? 0 : rng.pick([0, 300]),
        min_order: rng.pick([2, 2, 3, 4]),
        free_skips: rng.pick([1, 2, 3]),
        pause_fee: rng.pick([0, 800, 800]),
        deposit: c.riyou === '2' ? 0 : rng.pick([0, 2000]),
        cancel_date: c.cancel_date,
        cancel_reason: cancelled ? rng.pick(['引っ越しのため', '他社サービスへ切替', '利用頻度の低下', '事業所閉鎖のため']) : '',
        cancel_fee: cancelled && rng.chance(0.3) ? 10000 : 0,
        note: '',
      };
    });
}
