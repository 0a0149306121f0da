/**
 * A list's total (issue 21, "counts that keep up"): `{r}_cnt` and `{r}_pagination` answer
 * - an unfiltered list, or one filtered by its status column only (the order lists per 状態), from the row counters
 *   the triggers keep in the write's own transaction (server/db/migrations/row-counts.ts) — read, never counted;
 * - any other list by a count that stops at `LIMITS.countCap` + 1 rows: exact up to the cap, else "more".
 * `count_exact` counts a list exactly, in id ranges: within `LIMITS.countInlineMs` it answers the count, else it goes
 * on as a job (`count_exact`, progress = ids walked) whose result is the count.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { LIMITS, type CountMore } from '../../lib/protocol';
import { filterOf } from '../../lib/list/list-state';
import { idColumn, type ResourceDef } from '../../lib/resources/types';
import type { Database, ResourceDatabase } from '../db/schema';
import { COUNTED_0090 } from '../db/migrations/0090-row-counts';
import type { CountedTable } from '../db/migrations/row-counts';
import type { KeywordMatcher } from './keyword';
import { filterColumn, listCondition, type ListRequest } from './list-query';

/** The tables with row counters, by table: those migration 0090 started (a later migration that counts a table adds its list here). */
const COUNTED: ReadonlyMap<string, CountedTable> = new Map(COUNTED_0090.map((c) => [c.table, c]));

/** A list's total: exact, or the cap with `more` when the rows go past it. */
export interface ListTotal {
  count: number;
  more: boolean;
}

/**
 * The counter key a list's total can be read from: no keyword, owner or reader scope, and no filter but the
 * table's status column (`in` or `equals`). Undefined: the total must be counted.
 */
function counterKey(def: ResourceDef, request: ListRequest): { column: string; values: string[] } | undefined {
  const counted = COUNTED.get(def.table);
  if (!counted || request.terms.length > 0 || Object.keys(request.owners).length > 0 || request.scope) return undefined;
  const filters = Object.entries(request.filters);
  if (filters.length === 0) return { column: '', values: [''] };
  if (filters.length > 1 || !counted.status) return undefined;
  const [name, value] = filters[0];
  const filter = filterOf(def, name);
  if (!filter || filter.through || (filter.kind !== 'in' && filter.kind !== 'equals') || filterColumn(def, filter) !== counted.status) return undefined;
  const values = [...new Set((Array.isArray(value) ? value : [value]).map(String))].filter((v) => v !== '');
  return values.length > 0 ? { column: counted.status, values } : undefined;
}

/**
 * A list's total read from the row counters (the sum of the key's slots), or undefined when they cannot answer it.
 * @example await countedTotal(db, orderResource, request) // 182_331 (od_status = processed)
 */
export async function countedTotal(db: Kysely<Database>, def: ResourceDef, request: ListRequest): Promise<number | undefined> {
  const key = counterKey(def, request);
  if (!key) return undefined;
  const rows = await db.selectFrom('row_count')
    .select(['rc_column', (eb) => eb.fn.sum<number | string>('rc_n').as('n')])
    .where('rc_table', '=', def.table)
    .where((eb) => eb.or([
      eb.and([eb('rc_column', '=', ''), eb('rc_value', '=', '')]),
      eb.and([eb('rc_column', '=', key.column), eb('rc_value', 'in', key.values)]),
    ]))
    .groupBy('rc_column')
    .execute();
  // No row of the table's own key: its counters were never started in this database.
  if (!rows.some((r) => r.rc_column === '')) return undefined;
  return Number(rows.find((r) => r.rc_column === key.column)?.n ?? 0);
}

/** How many rows the list conditions match, counted up to `LIMITS.countCap` + 1. */
async function cappedCount(view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher): Promise<ListTotal> {
  const rows = view.selectFrom(def.table).select(sql<number>`1`.as('one')).where((eb) => listCondition(eb, def, request, keyword)).limit(LIMITS.countCap + 1);
  const row = await view.selectFrom(rows.as('capped')).select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow();
  const total = Number(row.total);
  return total > LIMITS.countCap ? { count: LIMITS.countCap, more: true } : { count: total, more: false };
}

/**
 * The total shown with a list (`{r}_cnt`, `{r}_pagination`): from the counters when they answer it, else capped.
 * @example await listTotal(db, view, orderResource, request, matcher) // { count: 10000, more: true }
 */
export async function listTotal(db: Kysely<Database>, view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher): Promise<ListTotal> {
  const counted = await countedTotal(db, def, request);
  return counted === undefined ? cappedCount(view, def, request, keyword) : { count: counted, more: false };
}

/** `{r}_cnt`'s answer: the count first (spec §7), then `{ more: true }` when it is the cap. */
export const countAnswer = (total: ListTotal): (number | CountMore)[] => (total.more ? [total.count, { more: true }] : [total.count]);

/** Ids one step of an exact count walks. */
const STEP = 50_000;

/** Where an exact count stands: the rows found below `next` (an id), of the ids `first`…`last`. */
export interface ExactCount {
  first: number;
  last: number;
  next: number;
  found: number;
}

/** An exact count about to start: the table's id range. */
export async function exactCountStart(view: Kysely<ResourceDatabase>, def: ResourceDef): Promise<ExactCount> {
  const id = idColumn(def);
  const row = await view.selectFrom(def.table).select((eb) => [eb.fn.min<number | null>(id).as('first'), eb.fn.max<number | null>(id).as('last')]).executeTakeFirstOrThrow();
  const first = row.first ?? 1;
  return { first, last: row.last ?? 0, next: first, found: 0 };
}

/** How far a count is, as a job's progress: the ids walked, of all. */
export const countProgress = (state: ExactCount): [done: number, total: number] =>
  [Math.min(state.next, state.last + 1) - state.first, state.last + 1 - state.first];

/** Whether the count has walked every id. */
export const exactCountDone = (state: ExactCount): boolean => state.next > state.last;

/**
 * Counts the list's rows a step of ids at a time from `state.next` while `keepGoing` (asked before each step, with
 * how far it is) says so, until every id is walked. Answers where it stands.
 */
export async function countOn(
  view: Kysely<ResourceDatabase>, def: ResourceDef, request: ListRequest, keyword: KeywordMatcher,
  start: ExactCount, keepGoing: (state: ExactCount) => Promise<boolean> | boolean,
): Promise<ExactCount> {
  const id = idColumn(def);
  let state = start;
  while (!exactCountDone(state) && (await keepGoing(state))) {
    const to = state.next + STEP;
    const row = await view.selectFrom(def.table).select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where((eb) => eb.and([eb(id, '>=', state.next), eb(id, '<', to), listCondition(eb, def, request, keyword)]))
      .executeTakeFirstOrThrow();
    state = { ...state, next: to, found: state.found + Number(row.n) };
  }
  return state;
}

/**
 * The job scope of an exact count: the resource and a digest of what it counts and for whom (a reader's scope may
 * hide rows): one count of the same list by the same user at a time.
 * @example countScope(orderResource, request, 7) // 'order:3f9a0c1b2d4e'
 */
export function countScope(def: ResourceDef, request: ListRequest, userId: number): string {
  const what = JSON.stringify([userId, request.terms, Object.entries(request.filters).sort(), Object.entries(request.owners).sort()]);
  return `${def.name}:${createHash('sha256').update(what).digest('hex').slice(0, 12)}`;
}
