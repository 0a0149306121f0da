/**
 * The import machinery (server/imports) and 顧客取込 (kind `client`), through the real app on both dialects:
 * - Reading: UTF-8 with and without BOM, cp932, an encoding chosen over the detected one, CRLF and LF, quoted commas
 *   and line breaks; a wrong encoding, a missing required column and a 50 MB+ file refused whole with nothing stored.
 * - Mapping: headers by label and synonym, a given mapping, the mapping remembered for the kind.
 * - The dry run: counts, every error by row and column with the customer form's own messages, nothing written; the
 *   errored rows as a CSV in the file's encoding with 「エラー内容」.
 * - The commit: a job, all or nothing (a row that became invalid after the preview fails it, nothing written); the same
 *   file twice creates nothing twice and is refused until confirmed; audit rows and the job id on the rows.
 * - The customer code: unique within the file and against the database; `client_csv` (cols=all) reads back as skips.
 * - Auth: no key 401, a role without the area 403.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import iconv from 'iconv-lite';
import type { ClientCodeAssignment } from '../../lib/clients/code-assign';
import type { ImportPreview } from '../../lib/imports/kinds';
import type { ImportCommitResult, ImportRunInfo } from '../../lib/imports/runs';
import type { JobInfo } from '../../lib/jobs';
import { AUTH_KEY_ERROR, MESSAGES } from '../../lib/protocol';
import { type Answer, dialects, jobEnded, resourceCalls, useHarness } from './harness';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
type Refusal = { error: string; fields?: Record<string, string>; imported_before?: unknown };
const sjis = (text: string): Buffer => iconv.encode(text, 'cp932');
const utf8 = (text: string, bom = false): Buffer => Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);

for (const dialect of dialects()) {
  describe(`imports (${dialect})`, () => {
    const h = useHarness(dialect);
    const { created, save } = resourceCalls(h);

    async function upload<T = ImportPreview>(fields: Record<string, string>, bytes: Uint8Array, name = '顧客.csv', key: string | null = h.adminKey): Promise<Answer<T[]>> {
      const form = new FormData();
      if (key !== null) form.append('authKey', key);
      for (const [k, v] of Object.entries(fields)) form.append(k, v);
      form.append('file', new Blob([bytes as BlobPart], { type: 'text/csv' }), name);
      return (await h.request(`${h.config.dbApiPrefix}/import_preview`, { method: 'POST', body: form })) as Answer<T[]>;
    }
    const preview = async (bytes: Uint8Array, fields: Record<string, string> = {}): Promise<ImportPreview> => {
      const res = await upload({ kind: 'client', ...fields }, bytes);
      assert.equal(res.status, 200, res.text);
      return res.body[0];
    };
    const refusal = async (bytes: Uint8Array, fields: Record<string, string> = {}): Promise<Answer<Refusal[]>> => upload<Refusal>({ kind: 'client', ...fields }, bytes);
    /** The import files kept (uploads and their errors, in the file store). */
    const storedFiles = async (): Promise<number> =>
      Number((await h.database.db.selectFrom('stored_file').select((eb) => eb.fn.countAll<number>().as('n')).where('sf_kind', 'in', ['import', 'import-errors']).executeTakeFirstOrThrow()).n);
    const runCount = async (): Promise<number> =>
      Number((await h.database.db.selectFrom('import_run').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const finished = (jobId: number): Promise<JobInfo<ImportCommitResult>> => jobEnded<ImportCommitResult>(h, jobId);
    const commit = async (importId: number, extra: Record<string, string> = {}): Promise<JobInfo<ImportCommitResult>> => {
      const res = await h.post<{ job_id: number }>('import_commit', { import_id: importId, ...extra });
      assert.equal(res.status, 200, res.text);
      return finished(res.body[0].job_id);
    };
    const byCode = async (code: string) => h.database.db.selectFrom('client').selectAll().where('cl_code', '=', code).where('deleted', '=', 0).execute();
    const clientCount = async (): Promise<number> =>
      Number((await h.database.db.selectFrom('client').select((eb) => eb.fn.countAll<number>().as('n')).where('deleted', '=', 0).executeTakeFirstOrThrow()).n);

    it('reads UTF-8 with a BOM, maps headers by label and synonym, previews without writing and commits as a job', async () => {
      const before = await clientCount();
      const file = utf8('顧客コード,顧客名,TEL,〒,状態\r\nU001,BOM商事,03-1111-2222,100-0001,契約中\r\nU002,ボム物産,03-1111-3333,,1\r\n', true);
      const p = await preview(file);
      assert.equal(p.encoding, 'utf8');
      assert.deepEqual(p.mapping, { code: '顧客コード', co_name: '顧客名', tel_1: 'TEL', zipcode: '〒', status: '状態' });
      assert.deepEqual([p.rows, p.inserts, p.updates, p.skips, p.errors.length], [2, 2, 0, 0, 0]);
      assert.equal(await clientCount(), before, 'the dry run writes nothing');
      const job = await commit(p.import_id);
      assert.equal(job.state, 'done', JSON.stringify(job));
      assert.deepEqual(job.result, { import_id: p.import_id, rows: 2, inserts: 2, updates: 0, skips: 0, summary: '2行を取り込みました（追加 2件・更新 0件・スキップ 0件）。' });
      const [row] = await byCode('U001');
      assert.equal(row.cl_co_name, 'BOM商事');
      assert.equal(row.cl_zipcode, '100-0001');
      assert.equal(row.cl_job_id, job.job_id, 'the row carries the job id');
      const audits = await h.database.db.selectFrom('audit_log').select(['log_call', 'log_job_id']).where('log_table', '=', 'client').where('log_record_id', '=', Number(row.cl_id)).execute();
      assert.deepEqual(audits.map((a) => [a.log_call, a.log_job_id]), [['import_commit', job.job_id]]);
    });
    it('reads UTF-8 without a BOM and LF line ends, quoted fields holding commas, quotes and line breaks', async () => {
      const file = utf8('顧客コード,会社名,電話番号1,メモ\nL001,"株式会社 L, 支店",03-2222-0001,"1行目\n2行目 ""引用"""\nL002,エル商会,03-2222-0002,\n');
      const p = await preview(file);
      assert.equal(p.encoding, 'utf8');
      assert.deepEqual([p.rows, p.inserts, p.errors.length], [2, 2, 0]);
      assert.equal((await commit(p.import_id)).state, 'done');
      const [row] = await byCode('L001');
      assert.equal(row.cl_co_name, '株式会社 L, 支店');
      assert.equal(row.cl_memo, '1行目\n2行目 "引用"');
      assert.equal((await byCode('L002')).length, 1);
    });

    it('detects cp932 (CRLF), reads it when chosen, and refuses a file read as the wrong encoding naming it', async () => {
      const text = '顧客コード,会社名,電話番号1,住所\r\nS001,株式会社シフトジス,03-3333-0001,丸の内１－２－３\r\n';
      const detected = await preview(sjis(text));
      assert.equal(detected.encoding, 'cp932');
      assert.deepEqual([detected.rows, detected.inserts, detected.errors.length], [1, 1, 0]);
      const chosen = await preview(sjis(text), { encoding: 'cp932' });
      assert.equal(chosen.encoding, 'cp932');
      const files = await storedFiles();
      const runs = await runCount();
      const asUtf8 = await refusal(sjis(text), { encoding: 'utf8' });
      assert.equal(asUtf8.status, 400, asUtf8.text);
      assert.match(asUtf8.body[0].error, /^文字コードを確認してください（UTF-8 として/);
      const asSjis = await refusal(utf8(text), { encoding: 'cp932' });
      assert.equal(asSjis.status, 400, asSjis.text);
      assert.match(asSjis.body[0].error, /^文字コードを確認してください（Shift_JIS として/);
      const bad = await refusal(utf8(text), { encoding: 'latin1' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body[0].fields?.encoding, '文字コードは auto・utf8・cp932 のどれかで指定してください。');
      assert.equal(await storedFiles(), files, 'a refused file is not kept');
      assert.equal(await runCount(), runs, 'a refused file is not recorded');
    });

    it('refuses a file without the required column naming it, before any row', async () => {
      const res = await refusal(utf8('会社名,電話番号1\r\n名無し商店,03-4444-0001\r\n'));
      assert.equal(res.status, 400, res.text);
      assert.equal(res.body[0].error, '必須の列「顧客コード」がありません。見出しを確認するか、列の対応で指定してください。');
    });

    it('uses a given mapping, remembers it for the kind and refuses a mapping naming a header the file lacks', async () => {
      const file = utf8('お客様CD,屋号,連絡先\r\nM001,マップ商店,03-5555-0001\r\n');
      const first = await refusal(file);
      assert.equal(first.status, 400, 'お客様CD and 屋号 are no known headers');
      const mapped = await preview(file, { mapping: JSON.stringify({ code: 'お客様CD', co_name: '屋号', tel_1: '連絡先' }) });
      assert.deepEqual(mapped.mapping, { code: 'お客様CD', co_name: '屋号', tel_1: '連絡先' });
      assert.deepEqual([mapped.rows, mapped.inserts, mapped.errors.length], [1, 1, 0]);
      const again = await preview(utf8('お客様CD,屋号,連絡先,会社名カナ\r\nM002,マップ二号店,03-5555-0002,マップ\r\n'));
      assert.deepEqual(again.mapping, { co_name_kana: '会社名カナ', code: 'お客様CD', co_name: '屋号', tel_1: '連絡先' }, 'the remembered mapping, and the labels matched');
      const wrong = await refusal(file, { mapping: JSON.stringify({ code: 'コード' }) });
      assert.equal(wrong.status, 400);
      assert.equal(wrong.body[0].error, '「顧客コード」に対応させた見出し「コード」がファイルにありません。');
      const notJson = await refusal(file, { mapping: '[1]' });
      assert.equal(notJson.status, 400);
      assert.equal(notJson.body[0].fields?.mapping, '列の対応（mapping）は {"項目": "見出し"} の形の JSON で指定してください。');
    });

    it('names every row’s problem by row and column with the customer form’s own messages; the errored rows as a CSV in the file’s encoding', async () => {
      const formRefusal = await save('client', { status: '1', co_name: 'メール誤り', tel_1: '03-6666-0000', email: 'not-a-mail' });
      assert.equal(formRefusal.status, 400);
      const emailMessage = (formRefusal.body[0] as unknown as Refusal).fields?.email;
      assert.ok(emailMessage);
      const text = [
        '顧客コード,会社名,電話番号1,メールアドレス,状態,定期配送',
        'E001,正しい商店,03-6666-0001,ok@example.jp,契約中,1',
        'E002,メール誤り,03-6666-0002,not-a-mail,契約中,0',
        'E003,状態誤り,03-6666-0003,,存在しない状態,はい',
        'E001,重複,03-6666-0004,,契約中,0',
        ',コードなし,03-6666-0005,,契約中,0',
        'E006,列が足りない',
        'E007,,03-6666-0007,,契約中,0',
      ].join('\r\n') + '\r\n';
      const p = await preview(sjis(text));
      assert.equal(p.encoding, 'cp932');
      assert.deepEqual([p.rows, p.inserts, p.updates, p.skips], [7, 1, 0, 0]);
      const coNameMessage = '会社名か氏名のどちらかを入力してください。';
      assert.deepEqual(p.errors, [
        { row: 3, column: 'メールアドレス', message: emailMessage },
        { row: 4, column: '状態', message: '「存在しない状態」は状態の選択肢にありません。' },
        { row: 5, column: '顧客コード', message: '顧客コード「E001」がファイルの中で重複しています（2 行目と同じ）。' },
        { row: 6, column: '顧客コード', message: '顧客コードを入力してください。' },
        { row: 7, column: '', message: '列の数が見出しと合いません（見出し 6 列、この行 2 列）。' },
        { row: 8, column: '会社名', message: coNameMessage },
      ]);
      assert.equal(p.errors_more, 0);
      assert.equal((await byCode('E001')).length, 0, 'the dry run writes nothing');

      const res = await fetch(`${h.url}${h.config.dbApiPrefix}/import_errors_csv`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ authKey: h.adminKey, import_id: String(p.import_id) }),
      });
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'text/csv; charset=Shift_JIS');
      const bytes = Buffer.from(await res.arrayBuffer());
      const expected = sjis([
        '顧客コード,会社名,電話番号1,メールアドレス,状態,定期配送,エラー内容',
        `E002,メール誤り,03-6666-0002,not-a-mail,契約中,0,メールアドレス: ${emailMessage}`,
        'E003,状態誤り,03-6666-0003,,存在しない状態,はい,状態: 「存在しない状態」は状態の選択肢にありません。',
        'E001,重複,03-6666-0004,,契約中,0,顧客コード: 顧客コード「E001」がファイルの中で重複しています（2 行目と同じ）。',
        ',コードなし,03-6666-0005,,契約中,0,顧客コード: 顧客コードを入力してください。',
        'E006,列が足りない,列の数が見出しと合いません（見出し 6 列、この行 2 列）。',
        `E007,,03-6666-0007,,契約中,0,会社名: ${coNameMessage}`,
      ].join('\r\n') + '\r\n');
      assert.deepEqual(bytes, expected, 'the errored rows byte for byte, in cp932');

      const refused = await h.post<Refusal>('import_commit', { import_id: p.import_id });
      assert.equal(refused.status, 400);
      assert.equal(refused.body[0].error, 'エラーが 6 件あるため取込を実行できません。エラーを直したファイルでもう一度確認してください。');
    });

    it('updates by customer code (sending only the file’s columns), skips unchanged rows, and keeps the code unique against the database', async () => {
      const existing = await created('client', { status: '1', code: 'D001', co_name: '既存商事', name: '既存 太郎', tel_1: '03-7777-0001', memo: '残るメモ' });
      const dup = await save('client', { status: '1', code: 'Ｄ００１', co_name: '二重登録', tel_1: '03-7777-0002' });
      assert.equal(dup.status, 400, 'the form refuses a code taken (full width folded)');
      assert.equal((dup.body[0] as unknown as Refusal).fields?.code, '顧客コード「D001」は既に登録されています。');
      const before = await clientCount();
      const p = await preview(utf8('顧客コード,会社名,電話番号1\r\nＤ００１,既存商事（新）,03-7777-0001\r\nD002,新規商事,03-7777-0003\r\n'));
      assert.deepEqual([p.rows, p.inserts, p.updates, p.skips, p.errors.length], [2, 1, 1, 0, 0]);
      assert.equal((await commit(p.import_id)).state, 'done');
      assert.equal(await clientCount(), before + 1, 'the existing code is updated, not inserted again');
      const [row] = await byCode('D001');
      assert.equal(row.cl_id, existing.cl_id);
      assert.equal(row.cl_co_name, '既存商事（新）');
      assert.equal(row.cl_memo, '残るメモ', 'columns not in the file stay');
      const same = await preview(utf8('顧客コード,会社名\r\nD001,既存商事（新）\r\n'));
      assert.deepEqual([same.inserts, same.updates, same.skips], [0, 0, 1]);
    });

    it('commits all or nothing: a row that became invalid after the preview fails the job and nothing is written', async () => {
      await created('client', { status: '1', code: 'P001', co_name: '親会社', tel_1: '03-8888-0001' });
      const p = await preview(utf8('顧客コード,会社名,電話番号1,請求親顧客\r\nC001,子会社一,03-8888-0002,P001\r\nC002,子会社二,03-8888-0003,\r\n'));
      assert.deepEqual([p.rows, p.inserts, p.errors.length], [2, 2, 0]);
      const [parent] = await byCode('P001');
      const del = await h.post('client_del', { id: Number(parent.cl_id) });
      assert.equal(del.status, 200, del.text);
      const job = await commit(p.import_id);
      assert.equal(job.state, 'failed');
      assert.match(job.error, /^確認の後にデータが変わったため、取込を中止しました（エラー 1 件。最初のエラー: 2 行目 請求親顧客: 請求親顧客「P001」が見つかりません/);
      assert.equal((await byCode('C002')).length, 0, 'the valid row is not written either');
      const [run] = (await h.post<ImportRunInfo>('import_lst', { kind: 'client', n: 1 })).body;
      assert.deepEqual([run.import_id, run.state, run.job_id], [p.import_id, 'failed', job.job_id]);
      const again = await h.post<Refusal>('import_commit', { import_id: p.import_id });
      assert.equal(again.status, 409);
    });

    it('imports the same file twice without creating anything twice, warning before the second', async () => {
      const file = utf8('顧客コード,会社名,電話番号1\r\nT001,二度目商店,03-9999-0001\r\n');
      const first = await preview(file);
      assert.equal(first.imported_before, null);
      const job = await commit(first.import_id);
      assert.equal(job.state, 'done');
      const committedRun = await h.post<Refusal>('import_commit', { import_id: first.import_id });
      assert.equal(committedRun.status, 409, 'a committed import is not run again');
      const second = await preview(file);
      assert.equal(second.imported_before?.import_id, first.import_id);
      assert.equal(second.imported_before?.user_name, '管理 太郎');
      assert.deepEqual([second.inserts, second.updates, second.skips], [0, 0, 1]);
      const warned = await h.post<Refusal>('import_commit', { import_id: second.import_id });
      assert.equal(warned.status, 409);
      assert.match(warned.body[0].error, /^同じファイルが \S+ \S+ に 管理 太郎 さんによって取り込まれています。/);
      const confirmed = await commit(second.import_id, { confirm_duplicate: '1' });
      assert.deepEqual(confirmed.result, { import_id: second.import_id, rows: 1, inserts: 0, updates: 0, skips: 1, summary: '1行を取り込みました（追加 0件・更新 0件・スキップ 1件）。' });
      assert.equal((await byCode('T001')).length, 1);
      const uploads = await h.database.db.selectFrom('audit_log').select(['log_call']).where('log_table', '=', 'import_run').where('log_call', '=', 'import_preview').execute();
      assert.ok(uploads.length >= 2, 'each upload is audited');
      const commits = await h.database.db.selectFrom('audit_log').select(['log_job_id']).where('log_table', '=', 'import_run').where('log_call', '=', 'import_commit').where('log_record_id', '=', first.import_id).execute();
      assert.deepEqual(commits.map((c) => c.log_job_id), [job.job_id]);
    });

    it('refuses a 50 MB file (413) and keeps nothing of it', async () => {
      const files = await storedFiles();
      const runs = await runCount();
      const big = Buffer.alloc(50 * 1024 * 1024 + 1, 0x41);
      big.write('顧客コード,会社名\r\n', 'utf8');
      const res = await refusal(big);
      assert.equal(res.status, 413, res.text);
      assert.equal(res.body[0].error, MESSAGES.uploadTooLarge(50 * 1024 * 1024));
      assert.equal(await storedFiles(), files);
      assert.equal(await runCount(), runs);
    });

    it('answers 401 without a key and 403 to a role without the kind’s area; an unknown kind is named', async () => {
      const file = utf8('顧客コード,会社名\r\nX001,権限なし\r\n');
      const anonymous = await upload<Refusal>({ kind: 'client' }, file, '顧客.csv', null);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body[0].error, AUTH_KEY_ERROR);
      const delivery = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
      const forbidden = await upload<Refusal>({ kind: 'client' }, file, '顧客.csv', delivery);
      assert.equal(forbidden.status, 403, forbidden.text);
      const p = await preview(file);
      assert.equal((await h.post('import_commit', { import_id: p.import_id }, delivery)).status, 403);
      assert.equal((await h.post('import_commit', { import_id: p.import_id }, null)).status, 401);
      assert.equal((await h.post('import_lst', { kind: 'client' }, delivery)).status, 200, '配送 reads customers');
      const unknown = await upload<Refusal>({ kind: 'nothing' }, file);
      assert.equal(unknown.status, 400);
      assert.equal(unknown.body[0].error, '取込の種類「nothing」はありません。');
    });

    const exportAll = async (enc: 'cp932' | 'utf8'): Promise<Buffer> => {
      const exported = await fetch(`${h.url}${h.config.dbApiPrefix}/client_csv`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ authKey: h.adminKey, cols: 'all', enc }),
      });
      assert.equal(exported.status, 200);
      return Buffer.from(await exported.arrayBuffer());
    };

    it('reads the CSV of client_csv (every column, cp932) back as skips only, customers without a code matched by the ID column', async () => {
      const live = await h.database.db.selectFrom('client').select(['cl_id', 'cl_code']).where('deleted', '=', 0).execute();
      assert.ok(live.some((c) => !c.cl_code), 'some customers have no code');
      const p = await preview(await exportAll('cp932'));
      assert.equal(p.encoding, 'cp932');
      assert.equal(p.mapping.id, 'ID', 'the export’s ID column is read');
      assert.deepEqual(p.errors, []);
      assert.deepEqual([p.rows, p.inserts, p.updates, p.skips], [live.length, 0, 0, live.length]);
    });

    it('imports the edited 全項目 export as updates of the same customers, nothing added; an ID that exists never becomes a new customer', async () => {
      const plain = await created('client', { status: '1', co_name: 'ラウンド商店', tel_1: '03-1212-0001', memo: '元のメモ' });
      const coded = await created('client', { status: '1', code: 'RT01', co_name: '往復商事', tel_1: '03-1212-0002' });
      const before = await clientCount();
      const text = (await exportAll('utf8')).toString('utf8')
        .replace('ラウンド商店', 'ラウンド商店（改）')
        .replace('RT01,往復商事', 'RT02,往復商事（改）');
      const p = await preview(Buffer.from(text, 'utf8'));
      assert.deepEqual(p.errors, []);
      assert.deepEqual([p.inserts, p.updates, p.skips], [0, 2, before - 2], 'the edited rows update, the rest are skips');
      assert.equal((await commit(p.import_id)).state, 'done');
      assert.equal(await clientCount(), before, 'count before = after');
      const [a] = await h.database.db.selectFrom('client').selectAll().where('cl_id', '=', Number(plain.cl_id)).execute();
      assert.deepEqual([a.cl_co_name, a.cl_memo, a.cl_code ?? ''], ['ラウンド商店（改）', '元のメモ', ''], 'matched by its ID, the code left empty');
      const [b] = await h.database.db.selectFrom('client').selectAll().where('cl_id', '=', Number(coded.cl_id)).execute();
      assert.deepEqual([b.cl_co_name, b.cl_code], ['往復商事（改）', 'RT02'], 'a new code in the file updates the customer of its ID');
      const again = await preview(Buffer.from(text, 'utf8'));
      assert.deepEqual([again.inserts, again.updates, again.errors.length], [0, 0, 0], 'the same file again changes nothing');

      const unknown = await preview(utf8(`ID,顧客コード,会社名\r\n999999,,迷子商店\r\n${String(plain.cl_id)},RT02,取り違え\r\n`));
      assert.deepEqual(unknown.errors.map((e) => [e.row, e.column]), [[2, 'ID'], [3, '顧客コード']]);
      assert.match(unknown.errors[0].message, /^ID 999999 の顧客が見つかりません。/);
      assert.match(unknown.errors[1].message, /^顧客コード「RT02」は ID \d+ の顧客のものですが、この行の ID は \d+（ラウンド商店（改））です。/);
      assert.equal(unknown.inserts, 0);
    });

    it('lists the kind’s imports newest first with counts, state, user and job; a template of the headers', async () => {
      const res = await h.post<ImportRunInfo>('import_lst', { kind: 'client', n: 3 });
      assert.equal(res.status, 200, res.text);
      assert.equal(res.body.length, 3);
      assert.ok(res.body[0].import_id > res.body[1].import_id);
      assert.equal(res.body[0].user_name, '管理 太郎');
      assert.ok(['preview', 'committed', 'failed'].includes(res.body[0].state));
      const template = await fetch(`${h.url}${h.config.dbApiPrefix}/import_template`, {
        method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ authKey: h.adminKey, kind: 'client', enc: 'utf8' }),
      });
      assert.equal(template.status, 200);
      assert.match(Buffer.from(await template.arrayBuffer()).toString('utf8'), /^\ufeff状態,顧客コード,会社名,/);
    });

    it('gives customers without a code the next free numbers of 自社情報’s prefix: previewed (nothing written), then committed through the write path', async () => {
      const none = await h.post<Refusal>('client_code_assign', {});
      assert.equal(none.status, 400);
      assert.equal(none.body[0].error, '自社情報の「顧客コードの接頭辞」を設定してください（顧客コードはこの文字と連番になります）。');
      const [company] = (await h.post<{ modified: string }>('company_dtl', { id: 1 })).body;
      const set = await save('company', { client_code_prefix: 'K', client_code_digits: 4, modified: company.modified }, 1);
      assert.equal(set.status, 200, set.text);
      await created('client', { status: '1', code: 'K0007', co_name: '採番済商店', tel_1: '03-1313-0001' });
      await created('client', { status: '1', code: 'K12X', co_name: '番号でない商店', tel_1: '03-1313-0002' });
      const codeless = async () => h.database.db.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name']).where('deleted', '=', 0)
        .where((eb) => eb.or([eb('cl_code', 'is', null), eb('cl_code', '=', '')])).orderBy('cl_id').execute();
      const waiting = await codeless();
      assert.ok(waiting.length >= 2, 'customers without a code');

      const preview = await h.post<ClientCodeAssignment>('client_code_assign', {});
      assert.equal(preview.status, 200, preview.text);
      const plan = preview.body[0];
      assert.deepEqual([plan.prefix, plan.digits, plan.count, plan.assigned], ['K', 4, waiting.length, false]);
      assert.deepEqual(plan.rows.map((r) => [r.cl_id, r.code]), waiting.map((c, i) => [Number(c.cl_id), `K${String(8 + i).padStart(4, '0')}`]), 'the next numbers after K0007, in id order');
      assert.equal(plan.rows[0].name, String(waiting[0].cl_co_name || waiting[0].cl_name));
      assert.equal((await codeless()).length, waiting.length, 'the preview writes nothing');

      const delivery = await h.keyOf(h.fixtures.users.delivery.email, h.fixtures.users.delivery.password);
      assert.equal((await h.post('client_code_assign', { commit: '1' }, delivery)).status, 403, '配送 does not write customers');
      const done = await h.post<ClientCodeAssignment>('client_code_assign', { commit: '1' });
      assert.equal(done.status, 200, done.text);
      assert.deepEqual(done.body[0].rows, plan.rows);
      assert.equal(done.body[0].assigned, true);
      assert.equal((await codeless()).length, 0);
      const [first] = await h.database.db.selectFrom('client').select('cl_code').where('cl_id', '=', plan.rows[0].cl_id).execute();
      assert.equal(first.cl_code, 'K0008');
      const audits = await h.database.db.selectFrom('audit_log').select('log_record_id').where('log_table', '=', 'client').where('log_call', '=', 'client_code_assign').execute();
      assert.equal(audits.length, waiting.length, 'an audit row per customer');
      const again = (await h.post<ClientCodeAssignment>('client_code_assign', {})).body[0];
      assert.deepEqual([again.count, again.rows], [0, []]);
    });
  });
}
