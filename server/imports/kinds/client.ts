/**
 * 顧客取込 (kind `client`): each row inserts or updates the customer of its 顧客コード, through the one write path
 * (`saveBatch`: the customer form's schema, checks and policy, so a row is refused with the form's own messages). A
 * row's text is read as people and our own `client_csv` write it: selects by option text or value, masters by their
 * text or code, 請求親顧客 and 代理店 by 顧客コード (or a name only one customer has), 配送担当者 by name or id, the
 * regular item by 商品コード or name, flags as 1/0, ○/×, はい/いいえ, dates as YYYY-MM-DD or YYYY/M/D. An update sends
 * only the file's columns with the stored `modified`; a row changing nothing is a skip — so the file `client_csv`
 * (cols=all) writes reads back as skips only. A row is matched on its 顧客コード, else on the export's ID column (customers
 * without a code, or a code changed in the file): a row whose ID is a live customer is never inserted.
 */
import { CLIENT_ID_COLUMN, clientImportColumns } from '../../../lib/imports/columns/client';
import type { ImportAction, ImportError } from '../../../lib/imports/kinds';
import { clientResource } from '../../../lib/resources/client';
import { checkValues } from '../../../lib/resources/schema';
import { columnOf, titleOf, type FieldDef } from '../../../lib/resources/types';
import { toHalfWidth, toStoredText } from '../../../lib/text';
import { masterOptions } from '../../master';
import { ApiError } from '../../http/api-error';
import type { ResourceRow } from '../../db/schema';
import { type BulkEntry, saveBatch } from '../../resources';
import type { ImportKindHandler, ImportRow, ImportRun } from '../kind';
import { headerKey } from '../run';

const FIELDS = new Map(clientResource.fields.map((f) => [f.name, f]));
const LABELS = new Map(clientImportColumns.map((c) => [c.field, c.label]));
const labelOf = (field: string): string => LABELS.get(field) ?? FIELDS.get(field)?.label ?? '';

// Compared as headers are (`headerKey`: hiragana as katakana, case folded).
const YES = new Set(['1', '○', '◯', 'はい', 'true', 'yes', 'y', 'あり', 'on', '有'].map(headerKey));
const NO = new Set(['0', '×', 'いいえ', 'false', 'no', 'n', 'なし', 'off', '無', ''].map(headerKey));

/** A text cell our CSV export neutralised (a leading `'` before = + - @ tab CR) read back as it was typed. */
const unneutralise = (text: string): string => (/^'[=+\-@\t\r]/.test(text) ? text.slice(1) : text);

/** A select's choices by value and by text (compared as headers are), read once per run. */
type Choices = Map<string, string>;

async function choicesOf(run: ImportRun, field: FieldDef): Promise<Choices> {
  const key = `choices:${field.name}`;
  const known = run.state.get(key) as Choices | undefined;
  if (known) return known;
  const options = field.master && run.actor.user ? await masterOptions(run.trx, run.actor.user, field.master) : (field.options ?? []);
  const choices: Choices = new Map();
  for (const o of options) choices.set(headerKey(o.text), String(o.value));
  // A value wins over a text that looks the same (codes are what a file of codes holds).
  for (const o of options) choices.set(`=${String(o.value)}`, String(o.value));
  run.state.set(key, choices);
  return choices;
}

const choose = (choices: Choices, text: string): string | undefined => choices.get(`=${text}`) ?? choices.get(headerKey(text));

/** `2026/4/1` → `2026-04-01`; other text as it is (the schema names what is wrong). */
function dateText(text: string): string {
  const m = /^(\d{4})[/.年-](\d{1,2})[/.月-](\d{1,2})日?$/.exec(toHalfWidth(text));
  return m ? `${m[1]}-${m[2].padStart(2, '0')}-${m[3].padStart(2, '0')}` : text;
}

/** References named in the file, resolved per chunk: customers by code or a unique name, items by code. */
interface Refs {
  clientsByCode: Map<string, number>;
  clientsByName: Map<string, number | null>;
  itemsByCode: Map<string, number>;
}

async function refsOf(run: ImportRun, rows: readonly ImportRow[]): Promise<Refs> {
  const names = new Set<string>();
  const items = new Set<string>();
  for (const row of rows) {
    for (const field of ['parent_id', 'dairiten_id']) if (row.values[field]) names.add(toStoredText(row.values[field]));
    if (row.values.haiso_item) items.add(toStoredText(row.values.haiso_item));
  }
  const refs: Refs = { clientsByCode: new Map(), clientsByName: new Map(), itemsByCode: new Map() };
  if (names.size) {
    const list = [...names];
    const found = await run.trx.selectFrom('client').select(['cl_id', 'cl_code', 'cl_co_name', 'cl_name']).where('deleted', '=', 0)
      .where((eb) => eb.or([eb('cl_code', 'in', list), eb('cl_co_name', 'in', list), eb('cl_name', 'in', list)])).execute();
    for (const c of found) {
      if (c.cl_code) refs.clientsByCode.set(String(c.cl_code), Number(c.cl_id));
      const title = titleOf(clientResource, c);
      if (title) refs.clientsByName.set(title, refs.clientsByName.has(title) ? null : Number(c.cl_id));
    }
  }
  if (items.size) {
    for (const it of await run.trx.selectFrom('item').select(['it_id', 'it_code']).where('deleted', '=', 0).where('it_code', 'in', [...items]).execute()) {
      refs.itemsByCode.set(String(it.it_code), Number(it.it_id));
    }
  }
  return refs;
}

/** One cell as the form would send it, or a problem naming what is wrong. */
async function formValue(run: ImportRun, refs: Refs, field: FieldDef, raw: string): Promise<{ value: string | number } | { problem: string }> {
  const text = unneutralise(raw);
  const label = field.label;
  if (text === '') return { value: field.type === 'flag' ? 0 : '' };
  switch (field.type) {
    case 'flag': {
      const key = headerKey(text);
      if (YES.has(key)) return { value: 1 };
      if (NO.has(key)) return { value: 0 };
      return { problem: `${label}は 1 か 0（○／×、はい／いいえ）で入力してください。` };
    }
    case 'money':
    case 'number':
    case 'decimal':
      return { value: toHalfWidth(text).replace(/[,，円¥￥\s]/g, '') };
    case 'date':
      return { value: dateText(text) };
    case 'select': {
      const value = choose(await choicesOf(run, field), text);
      return value === undefined ? { problem: `「${text}」は${label}の選択肢にありません。` } : { value };
    }
    case 'ref': {
      const key = toStoredText(text);
      let id: number | null | undefined;
      if (field.ref === 'client') id = refs.clientsByCode.get(key) ?? refs.clientsByName.get(key);
      else if (field.ref === 'item') id = refs.itemsByCode.get(key);
      if ((id === undefined || id === null) && field.master) {
        const chosen = choose(await choicesOf(run, field), text);
        if (chosen !== undefined) id = Number(chosen);
      }
      if ((id === undefined || id === null) && field.ref === 'user' && /^\d+$/.test(text)) id = Number(text);
      return id === undefined || id === null ? { problem: `${label}「${text}」が見つかりません（${field.ref === 'client' ? '顧客コードか名前' : field.ref === 'item' ? '商品コードか商品名' : '名前'}で指定してください）。` } : { value: id };
    }
    default:
      return { value: text };
  }
}

/** Whether the checked values change nothing of the stored customer. */
function unchanged(values: Readonly<Record<string, unknown>>, stored: ResourceRow): boolean {
  for (const [name, value] of Object.entries(values)) {
    const field = FIELDS.get(name);
    if (!field) continue;
    const before = stored[columnOf(clientResource, name)];
    const a = value === undefined || value === null ? '' : value;
    const b = before === undefined || before === null ? '' : before;
    if (field.type === 'flag' ? Number(a || 0) !== Number(b || 0) : ['money', 'number', 'decimal', 'ref'].includes(field.type) ? (a === '' ? b !== '' : b === '' || Number(a) !== Number(b)) : String(a) !== String(b)) return false;
  }
  return true;
}

/** A refusal of the write path as the rows' problems, by column label. */
function problemsOf(row: number, error: unknown): ImportError[] {
  if (!(error instanceof ApiError)) throw error;
  const fields = error.extra.fields as Record<string, string> | undefined;
  if (fields && Object.keys(fields).length) return Object.entries(fields).map(([field, message]) => ({ row, column: labelOf(field), message }));
  return [{ row, column: '', message: error.message }];
}

/** The ID cell of a row: nothing, a positive id, or not an id. */
function idCell(text: string): number | undefined | null {
  const digits = toHalfWidth(text).trim();
  if (digits === '') return undefined;
  return /^\d{1,15}$/.test(digits) && Number(digits) > 0 ? Number(digits) : null;
}

/**
 * The customers a chunk names: live ones by code, and every one (deleted too) by the export's ID, read in one query each.
 */
async function storedOf(run: ImportRun, codes: readonly string[], ids: readonly number[]) {
  const byCode = new Map<string, ResourceRow>();
  const byId = new Map<number, ResourceRow>();
  if (codes.length) {
    for (const c of await run.trx.selectFrom('client').selectAll().where('deleted', '=', 0).where('cl_code', 'in', codes).execute()) byCode.set(String(c.cl_code), c);
  }
  if (ids.length) {
    for (const c of await run.trx.selectFrom('client').selectAll().where('cl_id', 'in', ids).execute()) byId.set(Number(c.cl_id), c);
  }
  return { byCode, byId };
}

/**
 * Which stored customer a row is about: its 顧客コード's, else its ID's (the export's column) — a row whose ID is a live
 * customer never becomes a new one — or none (a new customer, which needs a code). A problem names the column.
 */
function targetOf(code: string, id: number | undefined, stored: Awaited<ReturnType<typeof storedOf>>): { row?: ResourceRow } | { problem: ImportError['column']; message: string } {
  const idLabel = 'ID';
  const byCode = code ? stored.byCode.get(code) : undefined;
  const byId = id === undefined ? undefined : stored.byId.get(id);
  if (byCode) {
    if (byId && byId.deleted === 0 && Number(byId.cl_id) !== Number(byCode.cl_id)) {
      return { problem: labelOf('code'), message: `${labelOf('code')}「${code}」は ID ${String(byCode.cl_id)} の顧客のものですが、この行の ID は ${id}（${titleOf(clientResource, byId)}）です。` };
    }
    return { row: byCode };
  }
  if (byId && byId.deleted === 0) return { row: byId };
  if (byId) return { problem: idLabel, message: `ID ${id} の顧客（${titleOf(clientResource, byId)}）は削除されています。新しい顧客として登録するときは ID を空にしてください。` };
  if (!code) {
    return id === undefined
      ? { problem: labelOf('code'), message: `${labelOf('code')}を入力してください。` }
      : { problem: idLabel, message: `ID ${id} の顧客が見つかりません。新しい顧客として登録するときは ID を空にして${labelOf('code')}を入力してください。` };
  }
  return {};
}

async function apply(run: ImportRun, rows: readonly ImportRow[]) {
  const actions: ImportAction[] = rows.map(() => 'skip');
  const errors: ImportError[] = [];
  const seen = (run.state.get('codes') as Map<string, number> | undefined) ?? new Map<string, number>();
  run.state.set('codes', seen);
  const seenIds = (run.state.get('ids') as Map<number, number> | undefined) ?? new Map<number, number>();
  run.state.set('ids', seenIds);
  const refs = await refsOf(run, rows);
  const codes = [...new Set(rows.map((r) => toStoredText(r.values.code ?? '')).filter(Boolean))];
  const ids = [...new Set(rows.map((r) => idCell(r.values[CLIENT_ID_COLUMN] ?? '')).filter((id): id is number => typeof id === 'number'))];
  const stored = await storedOf(run, codes, ids);
  const entries: BulkEntry[] = [];
  const entryRows: number[] = [];
  for (const [i, row] of rows.entries()) {
    const code = toStoredText(row.values.code ?? '');
    const id = idCell(row.values[CLIENT_ID_COLUMN] ?? '');
    if (id === null) {
      errors.push({ row: row.row, column: 'ID', message: `ID「${row.values[CLIENT_ID_COLUMN]}」は数字ではありません（エクスポートした ID をそのまま使ってください）。` });
      continue;
    }
    const target = targetOf(code, id, stored);
    if ('problem' in target) {
      errors.push({ row: row.row, column: target.problem, message: target.message });
      continue;
    }
    const earlier = code ? seen.get(code) : undefined;
    if (earlier !== undefined) {
      errors.push({ row: row.row, column: labelOf('code'), message: `${labelOf('code')}「${code}」がファイルの中で重複しています（${earlier} 行目と同じ）。` });
      continue;
    }
    const earlierId = target.row ? seenIds.get(Number(target.row.cl_id)) : undefined;
    if (earlierId !== undefined) {
      errors.push({ row: row.row, column: 'ID', message: `ID ${String(target.row?.cl_id)} の顧客がファイルの中で重複しています（${earlierId} 行目と同じ）。` });
      continue;
    }
    if (code) seen.set(code, row.row);
    if (target.row) seenIds.set(Number(target.row.cl_id), row.row);
    const values: Record<string, unknown> = {};
    const problems: ImportError[] = [];
    for (const [name, raw] of Object.entries(row.values)) {
      const field = FIELDS.get(name);
      if (!field) continue;
      const read = await formValue(run, refs, field, raw);
      if ('problem' in read) problems.push({ row: row.row, column: labelOf(name), message: read.problem });
      else values[name] = read.value;
    }
    // An empty code keeps the stored one (the row was found by its ID); a code given is stored as the form stores it.
    if (code) values.code = code;
    else delete values.code;
    if (problems.length) {
      errors.push(...problems);
      continue;
    }
    if (target.row) {
      const checked = checkValues(clientResource, values);
      if (checked.ok && unchanged(checked.values, target.row)) continue;
      actions[i] = 'update';
      entries.push({ id: Number(target.row.cl_id), values: { ...values, modified: target.row.modified } });
    } else {
      actions[i] = 'insert';
      entries.push({ values });
    }
    entryRows.push(row.row);
  }
  if (entries.length) {
    await saveBatch(run.trx, run.actor, clientResource, entries, {
      answer: false,
      refused: (k, error) => errors.push(...problemsOf(entryRows[k], error)),
    });
  }
  return { actions, errors };
}

export const clientImport: ImportKindHandler = { apply };
