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
import type { ImportPreview } from '../../lib/imports/kinds';
import type { ImportCommitResult } from '../../lib/imports/runs';
import type { JobInfo } from '../../lib/jobs';
import { dialects, useHarness, type Answer } from './harness';

const BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const utf8 = (text: string, bom = false): Buffer => Buffer.concat([bom ? BOM : Buffer.alloc(0), Buffer.from(text, 'utf8')]);

for (const dialect of dialects()) {
  describe(`imports (${dialect})`, () => {
    const h = useHarness(dialect);

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
    const finished = async (jobId: number): Promise<JobInfo<ImportCommitResult>> => {
      for (const deadline = Date.now() + 120_000; ;) {
        const res = await h.post<JobInfo<ImportCommitResult>>('job_dtl', { id: jobId });
        assert.equal(res.status, 200, res.text);
        if (res.body[0].state !== 'running') return res.body[0];
        assert.ok(Date.now() < deadline, 'the job ends');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
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
      assert.deepEqual(job.result, { import_id: p.import_id, rows: 2, inserts: 2, updates: 0, skips: 0 });
      const [row] = await byCode('U001');
      assert.equal(row.cl_co_name, 'BOM商事');
      assert.equal(row.cl_zipcode, '100-0001');
      assert.equal(row.cl_job_id, job.job_id, 'the row carries the job id');
      const audits = await h.database.db.selectFrom('audit_log').select(['log_call', 'log_job_id']).where('log_table', '=', 'client').where('log_record_id', '=', Number(row.cl_id)).execute();
      assert.deepEqual(audits.map((a) => [a.log_call, a.log_job_id]), [['import_commit', job.job_id]]);
    });
  });
}
