/**
 * The authorisation gate of every call, generated from the call table (`app.callTable`): a new call is
 * covered without touching this file.
 * - No auth key, a made-up one and a logged-out one: 401 with AUTH_KEY_ERROR, for every call.
 * - Every default role (lib/permissions ROLE_TABLE, a user each, made through `user_save` and logged in):
 *   a call whose area the role lacks at the call's level is 403 — unless the call's own `allow` lets it
 *   through (one's own profile) — and any other call passes the gate: neither 401 nor the gate's 403
 *   (a handler may still refuse with a 403 of its own that names why, e.g. a resource nobody adds to).
 * - The refused calls change nothing: the audit log and every table's count and newest `modified` are
 *   the same before and after them.
 * Calls are sent without parameters (the point is the gate, not what the handler does with them), and
 * with the caller's own id where `allow` says that matters.
 */
import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { can, effectiveAreas, ROLE_TABLE } from '../../lib/permissions';
import { AUTH_KEY_ERROR, MESSAGES } from '../../lib/protocol';
import type { CallDef, SessionUser } from '../../server/calls/call-table';
import type { Params } from '../../server/http/params';
import { dialects, useHarness, type Answer } from './harness';

/** Session bookkeeping a call may touch on its way to the gate (not data a refused call could change). */
const SESSION_TABLES = new Set(['auth_key', 'login_attempt', 'login_limit']);

interface Caller {
  role: string;
  key: string;
  user: SessionUser;
}

/** One request of the matrix and what it must answer. */
interface Case {
  call: string;
  who: string;
  key: string | null;
  params: Params;
  expect: 401 | 403 | 'through';
}

const PASSWORD = 'matrix-pass-2026';

for (const dialect of dialects()) {
  describe(`authorisation matrix (${dialect})`, () => {
    const h = useHarness(dialect);
    const callers: Caller[] = [];
    let loggedOutKey = '';

    /** Every table's row count and newest `modified`, and the audit log's count. */
    async function fingerprint(): Promise<Record<string, string>> {
      const { db } = h.database;
      const out: Record<string, string> = {};
      for (const table of await db.introspection.getTables()) {
        if (SESSION_TABLES.has(table.name) || table.name.startsWith('kysely_') || table.isView) continue;
        const hasModified = table.columns.some((c) => c.name === 'modified');
        const { rows } = await sql<{ n: number | string; newest: string | null }>`SELECT count(*) AS n, ${hasModified ? sql`max(modified)` : sql`NULL`} AS newest FROM ${sql.table(table.name)}`.execute(db);
        out[table.name] = `${Number(rows[0].n)} ${rows[0].newest ?? ''}`;
      }
      return out;
    }

    before(async () => {
      for (const [i, role] of Object.keys(ROLE_TABLE).entries()) {
        const email = `matrix-${i}@example.jp`;
        const saved = await h.post('user_save', { postData: JSON.stringify({ name: `権限表 ${role}`, email, role, active: '1', password: PASSWORD }) });
        assert.equal(saved.status, 200, saved.text);
        const key = await h.keyOf(email, PASSWORD);
        const [mine] = (await h.post<{ user_id: number; areas: SessionUser['areas'] }>('role_mine', {}, key)).body;
        assert.deepEqual(mine.areas, effectiveAreas(role, ROLE_TABLE[role]), `${role}: the server checks the default areas`);
        callers.push({ role, key, user: { user_id: mine.user_id, user_email: email, user_name: `権限表 ${role}`, user_role: role, areas: mine.areas, keyHash: '' } });
      }
      loggedOutKey = await h.keyOf(callers[1].user.user_email, PASSWORD);
      assert.equal((await h.post('logout', {}, loggedOutKey)).status, 200);
    });

    /** What a caller's call with these parameters must answer: through the gate, or 403. */
    const gate = (name: string, def: CallDef, caller: Caller, params: Params): 403 | 'through' =>
      def.area === null || can(caller.user.areas, def.area, def.level) || def.allow?.({ call: name, params, user: caller.user }) ? 'through' : 403;

    function cases(): Case[] {
      const out: Case[] = [];
      for (const [call, def] of h.app.callTable) {
        for (const [who, key] of [['no key', null], ['a made-up key', 'x'.repeat(43)], ['a logged-out key', loggedOutKey]] as const) {
          out.push({ call, who, key, params: {}, expect: 401 });
        }
        for (const caller of callers) {
          out.push({ call, who: caller.role, key: caller.key, params: {}, expect: gate(call, def, caller, {}) });
          // One's own record: what `allow` lets through beyond the role table.
          const own = { id: String(caller.user.user_id), postData: '{}' };
          if (gate(call, def, caller, {}) === 403 && gate(call, def, caller, own) === 'through') out.push({ call, who: `${caller.role} (own id)`, key: caller.key, params: own, expect: 'through' });
        }
      }
      return out;
    }

    const send = (c: Case): Promise<Answer<unknown[]>> => h.post(c.call, c.params, c.key);
    const about = (c: Case, answer: Answer<unknown[]>) => `${c.call} as ${c.who}: ${answer.status} ${answer.text.slice(0, 200)}`;

    it('covers every call of the table for every default role', (t) => {
      const all = cases();
      t.diagnostic(`${h.app.callTable.size} calls × (3 keys + ${callers.length} roles): ${all.filter((c) => c.expect === 401).length} without a valid key, ${all.filter((c) => c.expect === 403).length} refused by role, ${all.filter((c) => c.expect === 'through').length} through`);
      assert.ok(h.app.callTable.size > 50, `${h.app.callTable.size} calls`);
      assert.equal(callers.length, Object.keys(ROLE_TABLE).length);
      assert.equal(all.filter((c) => c.expect === 401).length, h.app.callTable.size * 3);
      // `allow` lets non-admins past the role table only for their own profile.
      assert.deepEqual([...new Set(all.filter((c) => c.who.endsWith('(own id)')).map((c) => c.call))].sort(), ['user_dtl', 'user_save']);
    });

    it('refuses every call without a valid key (401), and every call of an area the role lacks (403), changing nothing', async () => {
      const refused = cases().filter((c) => c.expect !== 'through');
      assert.ok(refused.some((c) => c.expect === 403), 'some calls are refused by role');
      const before = await fingerprint();
      const wrong: string[] = [];
      for (const c of refused) {
        const answer = await send(c);
        const error = (answer.body as { error?: string }[])[0]?.error;
        const message = c.expect === 401 ? AUTH_KEY_ERROR : MESSAGES.forbidden;
        if (answer.status !== c.expect || error !== message) wrong.push(about(c, answer));
      }
      assert.deepEqual(wrong, [], `${wrong.length} of ${refused.length} refusals are wrong`);
      assert.deepEqual(await fingerprint(), before, 'a refused call changed data');
    });

    it('lets every other call of each role through the gate (neither 401 nor 403, nor a server error)', async () => {
      const through = cases().filter((c) => c.expect === 'through');
      const wrong: string[] = [];
      for (const c of through) {
        // Logging out would end the key the next calls use: it logs out a key of its own.
        const key = c.call === 'logout' ? await h.keyOf(callers.find((k) => k.key === c.key)!.user.user_email, PASSWORD) : c.key;
        const answer = await send({ ...c, key });
        // A handler's own 403 names its reason (a resource nobody may add records to); the gate's says MESSAGES.forbidden.
        const error = (answer.body as { error?: string }[])[0]?.error;
        if (answer.status === 401 || (answer.status === 403 && error === MESSAGES.forbidden) || answer.status >= 500) wrong.push(about(c, answer));
      }
      assert.deepEqual(wrong, [], `${wrong.length} of ${through.length} calls did not pass the gate`);
    });
  });
}
