/**
 * データダウンロード (/system/download, `download_table`, the `download` area at write: the role table decides the screen and the call alike): the tables that may be downloaded, each with the resource
 * it is, the date column its period reads (its natural date) and whether its child rows are joined (one row per line, the
 * record's columns repeated). Shared by the server (the whitelist) and the screen (the choice).
 */
import type { ResourceName } from './resources';

export interface DownloadTable {
  /** The `table` parameter. */
  value: string;
  /** The choice's label. */
  text: string;
  /** The resource (lib/resources RESOURCES key). */
  resource: ResourceName;
  /** The column the period compares (a day column, or `created`: a timestamp compared by Japan days). */
  date: string;
  /** What the period is of, e.g. 受注日. */
  dateLabel: string;
  /** One row per child row (明細). */
  lines?: boolean;
  /**
   * Rows that are no declared resource's (`stock`: the warehouses' movements, table `stock_move`), read by their own query
   * and written by the same CSV writer (`csvFile`); `resource` then names the resource whose area they belong to.
   */
  rows?: 'stockMoves';
}

export const DOWNLOAD_TABLES: readonly DownloadTable[] = [
  { value: 'client', text: '顧客', resource: 'client', date: 'created', dateLabel: '登録日' },
  { value: 'order', text: '受注（明細つき）', resource: 'order', date: 'od_date', dateLabel: '受注日', lines: true },
  { value: 'sales', text: '売上伝票（明細つき）', resource: 'sales', date: 'sl_date', dateLabel: '売上日', lines: true },
  { value: 'payment', text: '入金伝票', resource: 'payment', date: 'py_date', dateLabel: '入金日' },
  { value: 'billing', text: '請求書', resource: 'billing', date: 'bl_closing_date', dateLabel: '締め日' },
  { value: 'stock', text: '在庫の入出庫（在庫数つき）', resource: 'souko', date: 'created', dateLabel: '日時', rows: 'stockMoves' },
  { value: 'bottle', text: 'ボトルの受け払い（預け本数つき）', resource: 'bottle', date: 'bt_move_date', dateLabel: '日付' },
  { value: 'log', text: '操作ログ', resource: 'log', date: 'created', dateLabel: '日時' },
];

/**
 * The table a `table` parameter names, or undefined.
 * @example downloadTable('order')?.dateLabel // '受注日'
 */
export const downloadTable = (value: string): DownloadTable | undefined => DOWNLOAD_TABLES.find((t) => t.value === value);

/** The refusal of a table not in the list, naming it and the choices. */
export const unknownDownloadTable = (value: string): string =>
  `データの種類「${value}」はダウンロードできません（${DOWNLOAD_TABLES.map((t) => `${t.value}: ${t.text}`).join('、')} から選んでください）。`;
