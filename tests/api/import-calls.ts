/**
 * The import calls as a suite uses them (server/imports/plugin.ts): `import_preview` with a file (multipart), and
 * `import_commit` followed to its job's end.
 */
import assert from 'node:assert/strict';
import type { ImportPreview } from '../../lib/imports/kinds';
import type { ImportCommitResult } from '../../lib/imports/runs';
import type { JobInfo } from '../../lib/jobs';
import { type Answer, type Harness, jobEnded } from './harness';

export function importCalls(h: Harness, kind: string) {
  /** `import_preview` of a file of the kind: the answer as it came. */
  const upload = async (bytes: Uint8Array, fields: Record<string, string> = {}, name = `${kind}.csv`): Promise<Answer<ImportPreview[]>> => {
    const form = new FormData();
    form.append('authKey', h.adminKey);
    form.append('kind', kind);
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([bytes as BlobPart], { type: 'text/csv' }), name);
    return (await h.request(`${h.config.dbApiPrefix}/import_preview`, { method: 'POST', body: form })) as Answer<ImportPreview[]>;
  };
  /** The dry run's preview (asserts 200). */
  const preview = async (bytes: Uint8Array, fields: Record<string, string> = {}): Promise<ImportPreview> => {
    const res = await upload(bytes, fields);
    assert.equal(res.status, 200, res.text);
    return res.body[0];
  };
  /** `import_commit` of a preview, the job followed to its end. */
  const commit = async (importId: number, extra: Record<string, string> = {}): Promise<JobInfo<ImportCommitResult>> => {
    const res = await h.post<{ job_id: number }>('import_commit', { import_id: importId, ...extra });
    assert.equal(res.status, 200, res.text);
    return jobEnded<ImportCommitResult>(h, res.body[0].job_id);
  };
  return { upload, preview, commit };
}
