/**
 * Property-based fuzzing of every registered call (the app's call table, so a new call is fuzzed
 * without anyone writing a test): hostile parameters — wrong types, missing parameters, 1 MB strings,
 * broken and wrongly shaped JSON, control characters, lone surrogates, huge and fractional numbers,
 * 10,000-element arrays, SQL and HTML in text, unknown sort columns. Invariants: never a 5xx (but the
 * mail calls' 503 "sending is off"), every failure is `[{ error }]` in Japanese without a stack, a path
 * or SQL, and a failed write changes nothing. Seeded: FUZZ_SEED and FUZZ_RUNS (cases per dialect) repeat a run.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { sql } from 'kysely';
import pg from 'pg';
import { RESOURCES, resourceNamed } from '../../lib/resources';
import type { FilterDef } from '../../lib/filters';
import { columnOf, idColumn, type FieldDef, type ResourceDef } from '../../lib/resources/types';
import type { CallDef } from '../../server/calls/call-table';
import { assertNoInternals, dialects, useHarness, type Harness } from './harness';

const SEED = Number(process.env.FUZZ_SEED ?? 20261124);
const RUNS = Number(process.env.FUZZ_RUNS ?? 5000);
/** Calls left out: `logout` would end the session the fuzzing runs on. */
const SKIPPED = new Set(['logout']);
/** Statuses a call may answer; 503 only where mail sending is off. */
const ALLOWED = new Set([200, 400, 401, 403, 404, 409, 413, 415, 429]);
const JAPANESE = /[\u3040-\u30FF\u4E00-\u9FFF]/;
const LEAKS = /\bSELECT\b|\bINSERT\b|\bsqlite\b|\bpostgres|SQLITE_|\/work\/|node_modules|\bundefined\b|\bNaN\b|\[object /i;

/** Every parameter name a call reads somewhere, plus each resource's `ref` fields (list owners). */
const PARAM_NAMES = [
  ...new Set([
    'id', 'n', 'p', 'col', 'odr', 'kw', 'postData', 'cl_id', 'od_id', 'it_id', 'sk_id', 'hr_id', 'ids', 'status', 'tracking_no',
    'srch_id', 'srch_name', 'srch_tbl', 'srch_kw', 'srch_col', 'srch_odr', 'table', 'from', 'to', 'team', 'userId', 'clientId',
    'coName', 'group',
    ...Object.values(RESOURCES).flatMap((def) => def.fields.filter((f) => f.type === 'ref').map((f) => f.name)),
  ]),
];

/** Keys a `postData` object may carry: every field and filter name of every resource, and a few others. */
const DATA_KEYS = [
  ...new Set([
    'modified', 'rows', 'lines', 'stops', 'kind', 'quantity', 'reason', 'current_password', '__proto__', 'constructor',
    ...Object.values(RESOURCES).flatMap((def) => [...def.fields.map((f) => f.name), ...def.list.filters.map((f) => f.name)]),
  ]),
];

/** Sort columns: every declared one (some valid for the call, most not) and invented ones. */
const COLUMNS = [
  ...new Set(Object.values(RESOURCES).flatMap((def) => [...def.list.sortable, idColumn(def), columnOf(def, 'pw'), `${idColumn(def)}; DROP TABLE ${def.table}`])),
];

const hostileText = fc.oneof(
  fc.constantFrom(
    '', ' ', '0', '-1', '1', '2', '3', '1.5', '0.5', '1e20', '1e400', '-0', 'NaN', 'Infinity', '2147483648', '-2147483649', '9007199254740993',
    '999999999999999', 'true', 'null', 'undefined', 'asc', 'desc', 'ASC', '2026-11-24', '2026-02-30', '9999-12-31', '0000-00-00',
    "' OR 1=1 --", "'; DROP TABLE client; --", '" OR ""="', '<script>alert(1)</script>', '<img src=x onerror=alert(1)>', '%', '_', '\\',
    'ＡＢＣ', 'ｱｸｱ', '水', '株式会社ＡＢＣ商事', 'admin@example.jp', '\u0000', 'a\u0000b', '\u0007\u001b\u007f', '\ud800', 'x\udfff',
    '\ud83d\ude00', '\t\n\r', '{}', '[]', '{"a":', '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]',
  ),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.integer().map(String),
  fc.double().map(String),
  fc.constantFrom(1, 1_000_000).map((n) => 'x'.repeat(n)),
);

type Json = string | number | boolean | null | Json[] | { [key: string]: Json };

const hostileNumber = fc.oneof(
  fc.constantFrom(0, -1, 1, 2, 0.5, 1.5, 2_147_483_648, -2_147_483_649, 1e20, 1e300, -1e300, Number.MAX_SAFE_INTEGER + 2, 999_999_999_999_999),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const hostileValue: fc.Arbitrary<Json> = fc.letrec<{ value: Json }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    hostileText,
    hostileNumber,
    fc.boolean(),
    fc.constant(null),
    fc.array(fc.oneof(hostileText, hostileNumber), { maxLength: 4 }),
    fc.constantFrom(10_000).map((n) => Array.from({ length: n }, (_, i) => i + 1)),
    fc.dictionary(fc.constantFrom(...DATA_KEYS), tie('value'), { maxKeys: 3 }),
  ),
})).value;

const brokenJson = fc.constantFrom(
  '{"a":', '[1,2', '{"a":1}}', '[]', '"text"', '123', 'null', 'true', '{"created":"2026-01-01"}', '{"__proto__":{"x":1}}',
  '{"co_name":"\\ud800"}', '{"kw":"\\u0000"}',
);

/** A value a field of this kind would accept: most keys of a case are sound, so the hostile one reaches deep. */
function soundValue(field: FieldDef): Json {
  switch (field.type) {
    case 'tel': return '03-1234-5678';
    case 'zip': return '100-0001';
    case 'email': return 'fuzz@example.jp';
    case 'url': return 'https://example.jp/';
    case 'date': return '2026-11-24';
    case 'number': case 'money': case 'flag': case 'ref': return 1;
    case 'decimal': return 1.5;
    case 'select': return field.options?.[0]?.value ?? '1';
    case 'secret': return 'fuzz-password-2026';
    case 'image': return '';
    default: return 'テスト';
  }
}

/** A filter value that applies. */
function soundFilter(filter: FilterDef): Json {
  switch (filter.kind) {
    case 'dateRange': return ['2026-01-01', ''];
    case 'numberRange': return [0, 100_000];
    case 'month': return '2026-11';
    case 'relativeDate': return filter.windows?.[0]?.value ?? '';
    case 'in': return [filter.options?.[0]?.value ?? '1'];
    default: return '1';
  }
}

/** `postData` of a resource's call: its own fields and filters, each sound or (one in four) hostile. */
function resourceData(def: ResourceDef): fc.Arbitrary<string> {
  const keyed: [string, Json][] = [
    ...def.fields.map((f): [string, Json] => [f.name, soundValue(f)]),
    ...def.list.filters.map((f): [string, Json] => [f.name, soundFilter(f)]),
  ];
  const entry = fc.constantFrom(...keyed).chain(([key, sound]) =>
    fc.tuple(fc.constant(key), fc.oneof({ weight: 3, arbitrary: fc.constant(sound) }, { weight: 1, arbitrary: hostileValue })));
  return fc.array(entry, { maxLength: 8 }).map((entries) => JSON.stringify(Object.fromEntries(entries)));
}

const anyData = fc.oneof(
  fc.dictionary(fc.constantFrom(...DATA_KEYS), hostileValue, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  fc.record({ rows: fc.array(fc.dictionary(fc.constantFrom(...DATA_KEYS), hostileValue, { maxKeys: 4 }), { maxLength: 3 }) }).map((o) => JSON.stringify(o)),
  fc.record({ lines: fc.array(fc.dictionary(fc.constantFrom('it_id', 'quantity', 'price', 'name'), hostileValue, { maxKeys: 4 }), { maxLength: 3 }) }).map((o) => JSON.stringify(o)),
  brokenJson,
  hostileText,
);

/** Parameters every call is sent before a case changes some: sound values, so a call gets past its first checks. */
const SOUND_PARAMS: Record<string, string> = {
  id: '1', n: '10', p: '1', cl_id: '1', od_id: '1', it_id: '1', sk_id: '1', hr_id: '1', ids: '[1]', status: 'pending',
  srch_id: '1', srch_name: '検索', srch_tbl: 'client', table: 'mt_bank', from: '2026-11-01', to: '2026-11-30', group: 'team',
};

/** The resource of a `{resource}_{verb}` call. */
function resourceOfCall(name: string): ResourceDef | undefined {
  const match = /^(.*)_(lst|cnt|pagination|sum|dtl|save|del|bulk_save|upd)$/.exec(name);
  return match ? resourceNamed(match[1]) : undefined;
}

/** The parameters of a case: the sound ones with one to three of them hostile, missing or added. */
function callParams(name: string): fc.Arbitrary<[string, string][]> {
  const def = resourceOfCall(name);
  const data = def ? fc.oneof({ weight: 3, arbitrary: resourceData(def) }, { weight: 1, arbitrary: anyData }) : anyData;
  const hostile = (key: string): fc.Arbitrary<string> =>
    key === 'postData' ? data : key === 'col' ? fc.oneof(fc.constantFrom(...COLUMNS), hostileText) : hostileText;
  const change = (key: string): fc.Arbitrary<[string, string | undefined]> =>
    fc.oneof({ weight: 6, arbitrary: hostile(key) }, { weight: 1, arbitrary: fc.constant(undefined) }).map((v): [string, string | undefined] => [key, v]);
  return fc
    .uniqueArray(fc.constantFrom(...PARAM_NAMES), { minLength: 1, maxLength: 3 })
    .chain((keys) => fc.tuple(...keys.map(change)))
    .map((changes) => {
      const out = new Map(Object.entries(SOUND_PARAMS));
      for (const [key, v] of changes) {
        if (v === undefined) out.delete(key);
        else out.set(key, v);
      }
      return [...out.entries()];
    });
}

/** Whether text holds no half of a surrogate pair (encodeURIComponent and JSON can carry it). */
const wellFormed = (value: string): boolean => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(value);

/**
 * Form encoding that can carry what a careless client sends: a lone surrogate goes as its (invalid)
 * UTF-8 bytes, `%ED%A0%80`, as a broken client would write it, instead of failing to encode.
 */
function encodeComponent(value: string): string {
  if (wellFormed(value)) return encodeURIComponent(value);
  return [...value].map((ch) => {
    const code = ch.charCodeAt(0);
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) {
      return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
    }
    return encodeURIComponent(ch);
  }).join('');
}

/**
 * What a failed write must leave as it was: the audit log and each resource table's rows. One statement of some sixty
 * subqueries: PostgreSQL plans it in about 12 ms and runs it in 1, so there it runs as a prepared statement on a
 * connection of its own (planned once); SQLite prepares it cheaply through the app's own connection.
 */
function fingerprinter(h: Harness): { take(): Promise<string>; close(): Promise<void> } {
  const parts = [sql`(SELECT count(*) FROM audit_log)`, sql`(SELECT count(*) FROM search)`, sql`(SELECT max(modified) FROM search)`];
  for (const def of Object.values(RESOURCES)) parts.push(sql`(SELECT count(*) FROM ${sql.table(def.table)})`, sql`(SELECT max(modified) FROM ${sql.table(def.table)})`);
  const query = sql<Record<string, unknown>>`SELECT ${sql.join(parts.map((p, i) => sql`${p} AS ${sql.ref(`f${i}`)}`))}`;
  if (h.dialect !== 'postgres') {
    return {
      take: async () => JSON.stringify(Object.values((await query.execute(h.database.db)).rows[0]).map(String)),
      close: async () => undefined,
    };
  }
  const client = new pg.Client(h.config.databaseUrl);
  const connected = client.connect();
  const text = query.compile(h.database.db).sql;
  return {
    take: async () => {
      await connected;
      const { rows } = await client.query<unknown[]>({ name: 'fuzz_fingerprint', text, rowMode: 'array' });
      return JSON.stringify(rows[0].map(String));
    },
    close: () => client.end(),
  };
}

for (const dialect of dialects()) {
  describe(dialect, () => {
    const h = useHarness(dialect);

    it(`${RUNS} hostile calls across the call table: no 5xx, Japanese [{error}] without internals, a failed write changes nothing`, { timeout: 20 * 60_000 }, async () => {
      const table = [...h.app.callTable.entries()].filter(([name]) => !SKIPPED.has(name)).sort(([a], [b]) => a.localeCompare(b));
      assert.ok(table.length > 50, `the call table has ${table.length} calls`);
      const seen = new Map<string, number>();
      const statuses = new Map<number, number>();
      const fingerprint = fingerprinter(h);
      // A case: a call, its parameters, whether it carries the admin's key (nine in ten), form or JSON body.
      const cases = fc.constantFrom(...table).chain(([name, def]) =>
        fc.tuple(fc.constant(name), fc.constant(def), callParams(name), fc.integer({ min: 0, max: 9 }).map((n) => n > 0), fc.boolean()));

      await fc.assert(
        fc.asyncProperty(cases, async ([name, def, pairs, withKey, asJson]: [string, CallDef, [string, string][], boolean, boolean]) => {
          seen.set(name, (seen.get(name) ?? 0) + 1);
          const before = def.level === 'write' ? await fingerprint.take() : '';
          const all: [string, string][] = withKey ? [['authKey', h.adminKey], ...pairs] : pairs;
          const body = asJson && pairs.every(([, v]) => wellFormed(v))
            ? JSON.stringify(Object.fromEntries(all))
            : all.map(([k, v]) => `${encodeURIComponent(k)}=${encodeComponent(v)}`).join('&');
          const res = await fetch(`${h.url}${h.config.dbApiPrefix}/${name}`, {
            method: 'POST',
            headers: { 'content-type': asJson ? 'application/json' : 'application/x-www-form-urlencoded' },
            body,
          });
          const text = await res.text();
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const where = `${name} ${res.status} ${body.slice(0, 200)} → ${text.slice(0, 200)}`;
          assert.ok(ALLOWED.has(res.status) || (res.status === 503 && name.startsWith('mailtemplate_')), where);
          // A call that answers a file (`{r}_csv`, the exports, the Zengin request, a PDF) answers it as an attachment when it
          // succeeds (data, not an error); its failures are [{error}] JSON like any call's.
          if (res.status === 200 && (res.headers.get('content-disposition') ?? '').startsWith('attachment')) {
            assert.doesNotMatch(res.headers.get('content-type') ?? '', /^application\/json/, where);
            if (name.endsWith('_csv')) assert.match(res.headers.get('content-type') ?? '', /^text\/csv/, where);
            return;
          }
          assertNoInternals(text);
          assert.match(res.headers.get('content-type') ?? '', /^application\/json/, where);
          const answer = JSON.parse(text) as unknown;
          assert.ok(Array.isArray(answer), where);
          if (res.status !== 200) {
            assert.equal(answer.length, 1, where);
            const error = (answer[0] as { error?: unknown }).error;
            assert.equal(typeof error, 'string', where);
            assert.match(String(error), JAPANESE, where);
            assert.doesNotMatch(String(error), LEAKS, where);
            if (def.level === 'write') assert.equal(await fingerprint.take(), before, `a refused write changed data: ${where}`);
          }
        }),
        { seed: SEED, numRuns: RUNS, endOnFailure: true },
      ).finally(() => fingerprint.close());
      const untouched = table.map(([name]) => name).filter((name) => !seen.has(name));
      console.log(`fuzz ${dialect}: ${RUNS} cases (seed ${SEED}) over ${seen.size}/${table.length} calls; statuses ${JSON.stringify(Object.fromEntries(statuses))}`);
      assert.ok(untouched.length <= table.length / 10, `calls never fuzzed: ${untouched.join(', ')}`);
    });
  });
}
