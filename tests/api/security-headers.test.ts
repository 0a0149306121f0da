/**
 * Security headers (issue 9) on every kind of answer; a page's policy allows exactly its inline scripts by
 * hash (also after the bundle changes on disk, and on a 304); the Google Maps hosts only with a maps key.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { dialects, startHarness, useHarness, type Answer } from './harness';

const INDEX_SCRIPTS = ['(self.__next_f=self.__next_f||[]).push([0])', 'self.__next_f.push([1,"a\\u003cb"])'];
const NOT_FOUND_SCRIPT = 'self.__next_f.push([2])';

// A bundle whose pages carry inline scripts like the Next export's (the harness's own has none).
const bundle = mkdtempSync(join(tmpdir(), 'hod-csp-'));
const page = (scripts: string[]) =>
  `<!doctype html><title>t</title><script src="./_next/app.js" async=""></script>${scripts.map((s) => `<script>${s}</script>`).join('')}<p>page</p>`;
writeFileSync(join(bundle, 'index.html'), page(INDEX_SCRIPTS));
writeFileSync(join(bundle, '404.html'), page([NOT_FOUND_SCRIPT]));
mkdirSync(join(bundle, '_next'));
writeFileSync(join(bundle, '_next', 'app.js'), 'console.log(1)');
after(() => rmSync(bundle, { recursive: true, force: true }));

const sha = (script: string) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`;

/** The policy's directives by name. */
function directives(answer: Answer): Map<string, string[]> {
  const csp = answer.headers.get('content-security-policy');
  assert.ok(csp, 'no Content-Security-Policy');
  return new Map(csp.split(';').map((part) => part.trim().split(/\s+/)).map(([name, ...sources]) => [name, sources]));
}

function assertHeaders(answer: Answer, what: string): void {
  assert.equal(answer.headers.get('x-content-type-options'), 'nosniff', what);
  assert.equal(answer.headers.get('x-frame-options'), 'DENY', what);
  assert.equal(answer.headers.get('referrer-policy'), 'strict-origin-when-cross-origin', what);
  assert.equal(answer.headers.get('cross-origin-opener-policy'), 'same-origin', what);
  assert.match(answer.headers.get('permissions-policy') ?? '', /camera=\(\)/, what);
  assert.deepEqual(directives(answer).get('frame-ancestors'), ["'none'"], what);
}

/** A page's policy: its own scripts by hash, no inline script otherwise, no plug-ins, no foreign base. */
function assertPagePolicy(answer: Answer, scripts: string[]): Map<string, string[]> {
  const policy = directives(answer);
  const scriptSrc = policy.get('script-src') ?? [];
  for (const script of scripts) assert.ok(scriptSrc.includes(sha(script)), `script-src lacks the hash of ${script}: ${scriptSrc.join(' ')}`);
  assert.equal(scriptSrc.filter((s) => s.startsWith("'sha256-")).length, scripts.length);
  assert.ok(scriptSrc.includes("'self'"));
  assert.ok(!scriptSrc.includes("'unsafe-inline'"));
  assert.deepEqual(policy.get('object-src'), ["'none'"]);
  assert.deepEqual(policy.get('base-uri'), ["'self'"]);
  assert.deepEqual(policy.get('form-action'), ["'self'"]);
  return policy;
}

const mapsHosts = /googleapis|gstatic|google\.com|googleusercontent/;

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect, { STATIC_DIR: bundle });

    it('every kind of answer carries the headers', async () => {
      const answers: [string, Answer][] = [
        ['page /', await h.request('/')],
        ['page /dev/', await h.request('/dev/')],
        ['HEAD /', await h.request('/', { method: 'HEAD' })],
        ['asset', await h.request('/_next/app.js')],
        ['config.json', await h.request('/config.json')],
        ['redirect', await h.request('/dev')],
        ['unknown page', await h.request('/no/such/page/')],
        ['API answer', await h.post('client_lst', {})],
        ['API refusal', await h.post('client_lst', {}, 'no-such-key')],
        ['unknown call', await h.post('no_such_call', {})],
        ['bad body', await h.request('/api/db/client_lst', { method: 'POST', headers: { 'content-type': 'text/x-unknown' }, body: 'x' })],
        ['login', await h.login('nobody@example.jp', 'wrong-password')],
        ['CORS preflight', await h.request('/api/login/', { method: 'OPTIONS', headers: { origin: 'https://allowed.example.jp', 'access-control-request-method': 'POST' } })],
      ];
      for (const [what, answer] of answers) assertHeaders(answer, what);
      const statuses = Object.fromEntries(answers.map(([what, answer]) => [what, answer.status]));
      assert.deepEqual(
        [statuses['unknown page'], statuses['unknown call'], statuses['CORS preflight'], statuses['bad body']],
        [404, 404, 204, 415],
      );
      // CORS still answers for the configured origin, next to the headers.
      const preflight = answers.find(([what]) => what === 'CORS preflight')![1];
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://allowed.example.jp');
    });

    it('answers that are not pages may load nothing', async () => {
      for (const path of ['/config.json', '/_next/app.js']) {
        assert.deepEqual(directives(await h.request(path)).get('default-src'), ["'none'"], path);
      }
      assert.deepEqual(directives(await h.post('client_lst', {})).get('default-src'), ["'none'"]);
    });

    it('a page’s policy lists the hash of each of its inline scripts, also on a 304 and on the 404 page', async () => {
      const index = await h.request('/');
      assertPagePolicy(index, INDEX_SCRIPTS);
      assertPagePolicy(await h.request('/dev/'), INDEX_SCRIPTS);
      const etag = index.headers.get('etag');
      assert.ok(etag);
      // fetch adds `cache-control: no-cache` to a conditional request unless it has one (Fetch spec).
      const notModified = await h.request('/', { headers: { 'if-none-match': etag, 'cache-control': 'max-age=0' } });
      assert.equal(notModified.status, 304);
      // A 304's headers replace the cached page's, so it must carry the same policy.
      assert.equal(notModified.headers.get('content-security-policy'), index.headers.get('content-security-policy'));
      const missing = await h.request('/no/such/page/');
      assert.equal(missing.status, 404);
      assertPagePolicy(missing, [NOT_FOUND_SCRIPT]);
    });

    it('a rebuilt page gets the hashes of its new scripts without a restart', async () => {
      const file = join(bundle, 'index.html');
      const rebuilt = ['self.__next_f.push([9])'];
      writeFileSync(file, page(rebuilt));
      const later = new Date(Date.now() + 5_000);
      utimesSync(file, later, later);
      try {
        assertPagePolicy(await h.request('/'), rebuilt);
      } finally {
        writeFileSync(file, page(INDEX_SCRIPTS));
      }
      assertPagePolicy(await h.request('/'), INDEX_SCRIPTS);
    });

    it('with a maps key the page allows the Google Maps hosts', async () => {
      const policy = assertPagePolicy(await h.request('/'), INDEX_SCRIPTS);
      assert.ok(policy.get('script-src')?.includes('https://*.googleapis.com'));
      assert.ok(policy.get('connect-src')?.includes('https://*.googleapis.com'));
      assert.ok(policy.get('img-src')?.includes('https://*.gstatic.com'));
      assert.ok(policy.get('font-src')?.includes('https://fonts.gstatic.com'));
    });

    if (dialect === 'sqlite') {
      it('without a maps key no Google host and no inline style is allowed', async () => {
        const plain = await startHarness('sqlite', { STATIC_DIR: bundle, MAPS_API_KEY: '' });
        try {
          assert.deepEqual((await plain.request('/config.json')).body, { dbApi: '/api/db', loginApi: '', mapsApiKey: '' });
          const answer = await plain.request('/');
          assertHeaders(answer, 'page without key');
          const policy = assertPagePolicy(answer, INDEX_SCRIPTS);
          assert.doesNotMatch(answer.headers.get('content-security-policy') ?? '', mapsHosts);
          assert.deepEqual(policy.get('style-src'), ["'self'"]);
          assert.doesNotMatch(policy.get('script-src')?.join(' ') ?? '', /unsafe-eval/);
        } finally {
          await plain.close();
        }
      });
    }
  });
}
