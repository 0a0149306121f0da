/**
 * The bundle under / and /dev/, the /dev redirect, config.json from the environment, unknown
 * paths, and CORS only for the configured origins.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dialects, startHarness, useHarness } from './harness';

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    it('/dev redirects to /dev/; the bundle is served under / and /dev/', async () => {
      const redirect = await h.request('/dev');
      assert.equal(redirect.status, 301);
      assert.equal(redirect.headers.get('location'), '/dev/');
      for (const path of ['/', '/dev/']) {
        const res = await h.request(path);
        assert.equal(res.status, 200, path);
        assert.match(res.text, /bundle index/);
      }
    });

    it('config.json reflects the environment, under / and /dev/', async () => {
      for (const path of ['/config.json', '/dev/config.json']) {
        const res = await h.request(path);
        assert.equal(res.status, 200);
        assert.deepEqual(res.body, { dbApi: '/api/db', loginApi: '', mapsApiKey: 'test-maps-key' });
        assert.equal(res.headers.get('cache-control'), 'no-store');
      }
    });

    it('unknown pages get the bundle’s 404 page', async () => {
      const res = await h.request('/no/such/page/');
      assert.equal(res.status, 404);
      assert.match(res.text, /bundle 404/);
    });

    it('CORS headers only for configured origins', async () => {
      const allowed = await h.request('/api/db/client_lst', {
        method: 'POST',
        headers: { origin: 'https://allowed.example.jp', 'content-type': 'application/x-www-form-urlencoded' },
        body: `authKey=${h.adminKey}`,
      });
      assert.equal(allowed.status, 200);
      assert.equal(allowed.headers.get('access-control-allow-origin'), 'https://allowed.example.jp');
      const other = await h.request('/api/db/client_lst', {
        method: 'POST',
        headers: { origin: 'https://evil.example.com', 'content-type': 'application/x-www-form-urlencoded' },
        body: `authKey=${h.adminKey}`,
      });
      assert.equal(other.headers.get('access-control-allow-origin'), null);
      const preflight = await h.request('/api/login/', {
        method: 'OPTIONS',
        headers: { origin: 'https://allowed.example.jp', 'access-control-request-method': 'POST' },
      });
      assert.equal(preflight.status, 204);
      assert.equal(preflight.headers.get('access-control-allow-origin'), 'https://allowed.example.jp');
    });

    if (dialect === 'sqlite') {
      it('other prefixes and keys are reflected too; no CORS without CORS_ORIGINS', async () => {
        const other = await startHarness('sqlite', { DB_API_PREFIX: '/v2/db/', LOGIN_API_PREFIX: '/auth/api/login', MAPS_API_KEY: 'k2', CORS_ORIGINS: '' });
        try {
          assert.deepEqual((await other.request('/dev/config.json')).body, { dbApi: '/v2/db', loginApi: '/auth', mapsApiKey: 'k2' });
          assert.equal((await other.post('client_cnt', {})).status, 200);
          const res = await other.request('/v2/db/client_cnt', {
            method: 'POST',
            headers: { origin: 'https://allowed.example.jp', 'content-type': 'application/x-www-form-urlencoded' },
            body: `authKey=${other.adminKey}`,
          });
          assert.equal(res.headers.get('access-control-allow-origin'), null);
        } finally {
          await other.close();
        }
      });
    }
  });
}
