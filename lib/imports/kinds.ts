/**
 * The imports (issue 14): what each kind reads, for the server's machinery (server/imports) and the screens' column
 * mapping alike. Every kind is read by ONE machinery — upload, encoding, CSV parsing, mapping, dry run through the one
 * write path, commit as a job — and differs only in its columns and its handler (server/imports/kinds/*).
 */
import type { Area } from '../permissions';

/** A column a kind reads: the field it fills, the header labels it is recognised by, and (for files without a header row) its position. */
export interface ImportColumn {
  /** The key the kind's handler reads from a row (`ImportRow.values[field]`). */
  field: string;
  /** The Japanese header the template writes and the mapping screen shows. */
  label: string;
  /** Other headers that mean this column (matched after NFKC, spaces removed, case folded). */
  synonyms?: readonly string[];
  /** A file without this column is refused before any row is read. */
  required?: boolean;
  /** 0-based column of a file without a header row (the Yamato B2 issued data: お客様管理番号 0, 伝票番号 3). */
  position?: number;
}

export interface ImportKindInfo {
  label: string;
  /** The area whose `write` the import needs (import_preview and import_commit alike). */
  area: Area;
  /** `csv`: the machinery parses CSV and maps columns; `fixed`: the handler reads the bytes itself (JACCS 120-byte records). */
  format: 'csv' | 'fixed';
  /** The screen the kind is imported from. */
  route: string;
  /** Rows of one group (an order's lines, by `od_key`) must be consecutive: a chunk never splits them. */
  groupBy?: string;
  /** What the kind's notices are (the heading of their list: 振替不能). */
  notices?: string;
  /** With `groupBy`: what a group and a row are called in the counts (受注 / 明細: 「受注 2件（明細 3行）」). */
  units?: { group: string; row: string };
  columns: readonly ImportColumn[];
}

/** One problem of one row: `row` the 1-based line of the file's records (the header is row 1 when there is one), `column` the column's label ('' for the whole row). */
export interface ImportError {
  row: number;
  column: string;
  message: string;
}

export type ImportAction = 'insert' | 'update' | 'skip';

/**
 * A row the kind names beside the counts — not an error, the import goes on (a JACCS debit that failed): the customer it
 * is about, its amount and what happened in words.
 */
export interface ImportNotice {
  row: number;
  cl_id: number | null;
  name: string;
  amount: number | null;
  message: string;
}

/** Where the records of the notices are listed (the customer list filtered on them). */
export interface ImportNoticeLink {
  label: string;
  path: string;
}

/** The most notices an answer carries (`notices_more` counts the rest). */
export const IMPORT_NOTICES_ANSWERED = 1000;

/** The notices of a run as the preview and the commit's result answer them. */
export interface ImportNotices {
  notices?: ImportNotice[];
  notices_more?: number;
  notice_link?: ImportNoticeLink;
}

/** How many rows (or, with `groupBy`, groups) a run inserts, updates and skips (errored ones are in none). */
export interface ImportCounts {
  inserts: number;
  updates: number;
  skips: number;
}

/** The counts of a run: its rows, and its groups for a kind with `groupBy` (an order's lines are one order). */
export interface ImportTotals extends ImportCounts {
  rows: number;
  groups?: ImportCounts;
}

const count = (n: number): string => n.toLocaleString('ja-JP');

/**
 * What a run comes to in words, for the preview (`done` false) and the commit's result alike: rows and their actions, or
 * for a kind of groups the groups and their rows apart.
 * @example importSummary(orderImportKind, { rows: 3, inserts: 3, updates: 0, skips: 0, groups: { inserts: 2, updates: 0, skips: 0 } }, true) // '受注 2件（明細 3行）を取り込みました。'
 */
export function importSummary(info: Pick<ImportKindInfo, 'units'>, totals: ImportTotals, done: boolean): string {
  const verb = done ? '取り込みました' : '取り込みます';
  const { units } = info;
  const groups = totals.groups;
  if (!units || !groups) {
    return `${count(totals.rows)}行を${verb}（追加 ${count(totals.inserts)}件・更新 ${count(totals.updates)}件・スキップ ${count(totals.skips)}件）。`;
  }
  const skipped = groups.skips > 0 ? `（スキップ ${units.group} ${count(groups.skips)}件・${units.row} ${count(totals.skips)}行）` : '';
  return `${units.group} ${count(groups.inserts + groups.updates)}件（${units.row} ${count(totals.inserts + totals.updates)}行）を${verb}${skipped}。`;
}

/** What `import_preview` answers (first element of its array). */
export interface ImportPreview extends ImportNotices {
  import_id: number;
  kind: string;
  file_name: string;
  encoding: string;
  rows: number;
  inserts: number;
  updates: number;
  skips: number;
  /** A kind with `groupBy`: its groups' counts (orders beside their lines). */
  groups?: ImportCounts;
  /** The counts in words (`importSummary`). */
  summary: string;
  errors: ImportError[];
  /** Errors beyond those answered (all are in the errored-rows CSV). */
  errors_more: number;
  /** The file's header → field mapping used (field → header text, or `#n` for a position). */
  mapping: Record<string, string>;
  /** The file's headers as read ([] without a header row). */
  headers: string[];
  /** The same file (by its SHA-256) was imported before: when and by whom. */
  imported_before: { import_id: number; committed: string; user_name: string } | null;
}
