import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects, startHarness, type Harness } from './harness';

for (const dialect of dialects()) {
  describe(`smoke (${dialect})`, () => {
    let h: Harness;
    before(async () => { h = await startHarness(dialect); });
    after(async () => { await h?.close(); });
    it('lists clients', async () => {
      const r = await h.post('client_lst', { n: 3 });
      assert.equal(r.status, 200, r.text);
      console.log(r.body.map((x) => x.cl_co_name));
      const k = await h.post('client_lst', { kw: 'ａｂｃ' });
      console.log(k.status, k.body.map((x) => x.cl_co_name));
    });
  });
}
