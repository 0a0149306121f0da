/**
 * Benchmark (issue 22): the invoice archive's search (電子帳簿保存法 可視性) on 1,000,000 archived versions —
 * `archive_lst` / `archive_cnt` by 取引年月日 range, 取引金額 range, 取引先 (name, kana, code) and combined — next to a
 * bare Fastify route, on SQLite and PostgreSQL (bench/list-bench.ts). Goal as the other lists: p95 ≤ 10 ms at 10
 * connections.
 *
 * The fixture is loaded for the benchmark only, by `bulkInsert` (the declared fields and the keyword text): 100,000
 * customers × 10 monthly closings (20日締め, 2025-09 … 2026-06), every 20th version a cancelled one with its 修正.
 * The rows name stored files that are not there: the search never reads a file.
 *
 * Run: `node --import tsx bench/archive-search.ts` (BENCH_VERSIONS, BENCH_SECONDS, BENCH_CONNECTIONS, BENCH_DIALECTS).
 */
import { archiveResource } from '../lib/resources/archive';
import { bulkInsert } from '../server/seed/bulk-insert';
import { createRng } from '../server/seed/data/rng';
import { CONNECTIONS, runListBench, type Case } from './list-bench';

const VERSIONS = Number(process.env.BENCH_VERSIONS ?? 1_000_000);
const MONTHS = ['2025-09', '2025-10', '2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06'];
const CUSTOMERS = Math.max(1, Math.floor(VERSIONS / MONTHS.length));
const CHUNK = 50_000;
const FAMILY = ['青葉', '北山', '南川', '東野', '西田', '中島', '小林', '高橋', '佐藤', '鈴木'];
const FAMILY_KANA = ['アオバ', 'キタヤマ', 'ミナミカワ', 'ヒガシノ', 'ニシダ', 'ナカジマ', 'コバヤシ', 'タカハシ', 'サトウ', 'スズキ'];
const KIND = ['商事', '工業', '商店', '医院', '建設'];
const KIND_KANA = ['ショウジ', 'コウギョウ', 'ショウテン', 'イイン', 'ケンセツ'];

/** The customer n's 取引先 keys: a code, a name and its kana (one in 50 names is the same family and kind). */
function customer(n: number): { code: string; name: string; kana: string } {
  const f = n % FAMILY.length;
  const k = Math.floor(n / FAMILY.length) % KIND.length;
  return { code: `C${String(n + 1).padStart(7, '0')}`, name: `${FAMILY[f]}${KIND[k]} ${n + 1}号店`, kana: `${FAMILY_KANA[f]}${KIND_KANA[k]}` };
}

await runListBench({
  title: `invoice archive search benchmark: ${VERSIONS.toLocaleString()} archived versions of ${CUSTOMERS.toLocaleString()} customers`,
  goal: `archive_lst p95 ≤ 10 ms (${CONNECTIONS} connections)`,
  async load(db) {
    const rng = createRng(2201);
    let done = 0;
    for (const [m, month] of MONTHS.entries()) {
      for (let from = 0; from < CUSTOMERS && done < VERSIONS; from += CHUNK) {
        const rows = Array.from({ length: Math.min(CHUNK, CUSTOMERS - from, VERSIONS - done) }, (_, i) => {
          const n = from + i;
          const who = customer(n);
          const number = `BL${month.replace('-', '')}-${String(n + 1).padStart(6, '0')}`;
          const cancelled = (n + m) % 20 === 0;
          return {
            number, version: 1, state: cancelled ? '2' : '1', date: `${month}-20`, amount: 1_000 + Math.floor(rng.next() * 49_000),
            cl_id: n + 1, cl_code: who.code, cl_name: who.name, cl_kana: who.kana, sime_gp: '20', sime_ym: month.replace('-', ''),
            bl_id: done + i + 1, file_name: `請求書_${number}.pdf`, sf_id: done + i + 1, size: 60_000, pages: 1, sha256: '0'.repeat(64),
            usr_id: 1, keep_until: `${Number(month.slice(0, 4)) + 7}${month.slice(4)}-20`,
            ...(cancelled ? { cancelled_at: `${month}-25T01:00:00.000Z`, cancelled_by: 1, cancel_reason: '締め戻し' } : {}),
          };
        });
        await bulkInsert(db, archiveResource, rows, { createdOf: () => `${MONTHS[m]}-21T01:00:00.000Z` });
        done += rows.length;
      }
    }
    return { versions: done, code: customer(4242).code, kana: 'キタヤマコウギョウ', name: '青葉商事' };
  },
  notes: (d, dialect) => [`${dialect}: ${d.versions.toLocaleString()} archived versions`],
  cases({ code, kana, name }, authKey): Case[] {
    const base = { authKey, n: '10', p: '1', kw: '', col: 'ar_date', odr: 'desc', postData: '' };
    const month = JSON.stringify({ ar_date: ['2026-03-01', '2026-03-31'] });
    const amount = JSON.stringify({ ar_amount: [30_000, 30_100] });
    const both = JSON.stringify({ ar_date: ['2026-01-01', '2026-03-31'], ar_amount: [10_000, 20_000] });
    return [
      { name: 'archive_lst newest first (取引年月日)', call: 'archive_lst', params: base },
      { name: 'archive_lst by 番号 (ar_id desc)', call: 'archive_lst', params: { ...base, col: 'ar_id' } },
      { name: 'archive_lst 取引年月日 2026-03', call: 'archive_lst', params: { ...base, postData: month } },
      { name: 'archive_lst 取引金額 30,000–30,100', call: 'archive_lst', params: { ...base, postData: amount } },
      { name: `archive_lst kw=${code} (顧客コード)`, call: 'archive_lst', params: { ...base, kw: code } },
      { name: `archive_lst kw=${kana} (カナ)`, call: 'archive_lst', params: { ...base, kw: kana } },
      { name: `archive_lst kw=${name} + date + amount`, call: 'archive_lst', params: { ...base, kw: name, postData: both } },
      { name: 'archive_lst by 取引金額 (sort)', call: 'archive_lst', params: { ...base, col: 'ar_amount', postData: month } },
      { name: 'archive_cnt 取引年月日 2026-03', call: 'archive_cnt', params: { authKey, kw: '', postData: month } },
      { name: 'archive_cnt date + amount', call: 'archive_cnt', params: { authKey, kw: '', postData: both } },
    ];
  },
});
