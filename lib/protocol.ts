/**
 * The wire protocol shared by the client and the server (DESIGN §3).
 * Every message a user can see from the API is defined here once.
 */
import type { RoleAreas } from './permissions';

/** The one message that means "authentication-key error": on it the client logs out. */
export const AUTH_KEY_ERROR = '認証キーが無効です。もう一度ログインしてください。';

/** The parameter every call carries the session's key in. */
export const AUTH_KEY_PARAM = 'authKey';

/** The longest period (days) the regular-delivery calls take: hod_preview, hod_generate, hod_list, hod_uriage. */
export const HOD_MAX_DAYS = 93;

/** 「11月30日」 of a day YYYY-MM-DD. */
const monthDay = (day: string): string => `${Number(day.slice(5, 7))}月${Number(day.slice(8, 10))}日`;

const periodTooLong = (days: number): string => `期間は ${days} 日以内で指定してください。`;

/** A byte count in MB as a message shows it: 20 → '20', 1.5 MB → '1.5'. */
const megabytes = (bytes: number): string => String(Math.round((bytes / 1024 / 1024) * 10) / 10);

export const MESSAGES = {
  loginFailed: 'メールアドレスまたはパスワードが正しくありません。',
  loginMissing: 'メールアドレスとパスワードを入力してください。',
  loginDelayed: (seconds: number): string => `ログインの失敗が続いたため、あと ${seconds} 秒はログインできません。時間をおいて再度お試しください。`,
  forbidden: 'この操作を行う権限がありません。',
  unknownCall: '存在しない呼び出しです。',
  badRequest: '送信内容が正しくありません。',
  badJson: 'postData の形式が正しくありません（JSON として読み取れません）。',
  emptySave: '保存する内容（postData）が送られていません。何も保存していません。',
  badPageSize: '表示件数は 1〜1000 の整数で指定してください。',
  badPage: 'ページ番号は 1 以上の整数で指定してください。',
  badSortColumn: '並べ替えできない列が指定されました。',
  badSortOrder: '並び順は asc または desc で指定してください。',
  badKeyword: '検索キーワードが長すぎます（200文字まで）。',
  badFilter: '使用できない絞り込み条件が指定されました。',
  countBadResource: '数える一覧（resource）が正しくありません。',
  countBadWait: '待つ時間（wait）は 0〜1000 ミリ秒の整数で指定してください。',
  badId: 'ID が正しくありません。',
  hodBadFrom: '開始日を YYYY-MM-DD の日付で入力してください。',
  rentalBadMonth: '対象月は YYYYMM（例: 202605）の形で入力してください。',
  closingBadGroup: '締日は 5・10・15・20・25・31（末日）のいずれかで指定してください。',
  closingBadMonth: '締め年月は YYYYMM（例: 202505）の形で指定してください。',
  /** A closing whose closing date has not come (`closing_run` without `early=1`, the `future` warning): days YYYY-MM-DD. */
  closingEarly: (closingDate: string, today: string): string =>
    `${monthDay(closingDate)}締めの締め日はまだ来ていません（今日は${monthDay(today)}）。締め日前に締める場合は、締め日までの売上・入金がそろっているか確認してから実行してください。`,
  hodBadTo: '終了日を YYYY-MM-DD の日付で入力してください。',
  hodToBeforeFrom: '終了日は開始日以降の日付を入力してください。',
  hodRangeTooLong: periodTooLong(HOD_MAX_DAYS),
  /** A period longer than a screen takes (lib/period.ts). */
  periodTooLong,
  notFound: '指定されたデータが見つかりません。',
  jobRunning: (what: string, user: string, started: string): string => `${what}は実行中です（${user}さんが ${started} に開始）。終わってから、もう一度実行してください。`,
  jobCancelled: '取り消しました。データは変更していません。',
  jobAbandoned: 'サーバーが処理の途中で停止したため中断しました。データは変更していません。もう一度実行してください。',
  jobBadKind: '処理の種類が正しくありません。',
  jobBadState: '処理の状態は running・done・failed・cancelled のいずれかで指定してください。',
  jobNotRunning: 'この処理は実行中ではないため、取り消せません。',
  searchName: '検索条件の名前を入力してください（100文字まで）。',
  searchNameTaken: 'この名前の検索条件は既に保存されています。別の名前を入力してください。',
  badReference: '関連付けるデータ（顧客など）が見つかりません。番号を確認してください。',
  conflict: 'このデータは他のユーザーによって更新されています。画面を再読み込みしてから、もう一度編集してください。',
  duplicate: '同じ内容のデータが既に登録されています。画面を再読み込みして確認してください。',
  tooLarge: '送信データが大きすぎます。',
  internal: 'サーバーでエラーが発生しました。時間をおいて再度お試しください。',
  unavailable: 'データベースに接続できません。時間をおいて再度お試しください。',
  /** A request that reached a server process while it stops (a deployment, a restart): another answers it shortly. */
  stopping: 'サーバーを再起動しています。少し待ってから再度お試しください。',
  network: 'サーバーに接続できませんでした。通信環境を確認してください。',
  saved: '保存しました。',
  searchSaved: '検索条件を保存しました。',
  deleted: '削除しました。',
  confirmDelete: 'このデータを本当に削除しますか？',
  badBulk: '一括保存の内容が正しくありません（rows に id と値の組を 1〜1000 件指定してください）。',
  unsaved: '保存されていない変更があります。このページを離れますか？',
  badUrl: 'URL が正しくありません。',
  badEncoding: '送信内容の文字コードが正しくありません（UTF-8 で送信してください）。',
  tooDeep: 'postData の入れ子が深すぎます。',
  csvBadCols: 'CSV の列は list（一覧の列のみ）または all（全項目）で指定してください。',
  csvBadEncoding: 'CSV の文字コードは cp932 または utf8 で指定してください。',
  downloadFailed: 'ファイルを受け取れませんでした。通信環境を確認して、もう一度お試しください。',
  uploadFailed: 'ファイルを送信できませんでした。通信環境を確認して、もう一度お試しください。',
  uploadTooLarge: (maxBytes: number): string => `ファイルが大きすぎます（上限 ${megabytes(maxBytes)} MB）。`,
  uploadMissing: 'ファイルが送信されていません。ファイルを選択してください。',
  uploadBadType: (extensions: readonly string[]): string => `ファイルの種類が正しくありません（${extensions.join('・')} のファイルを選択してください）。`,
  uploadOneFile: 'ファイルは 1 つだけ送信してください。',
  uploadFieldsFirst: 'ファイルの後に送られた項目は読み取れません。項目はファイルより前に送信してください。',
  uploadBadForm: 'ファイルの送信内容が正しくありません（multipart/form-data として読み取れません）。',
  uploadNotAccepted: 'この呼び出しはファイルの送信を受け付けません。',
} as const;

/**
 * Messages that name what they are about (a parameter, a field, a filter).
 * @example NAMED_MESSAGES.badCharacters('会社名') // '会社名に使用できない文字（制御文字など）が含まれています。'
 */
export const NAMED_MESSAGES = {
  badCharacters: (name: string): string => `${name}に使用できない文字（制御文字など）が含まれています。`,
  badFilterValue: (label: string): string => `絞り込み条件「${label}」の値が正しくありません。`,
  tooManyFilterValues: (label: string): string => `絞り込み条件「${label}」の値が多すぎます（${LIMITS.maxFilterValues.toLocaleString('en-US')}件まで）。`,
  numberRange: (label: string, min: number, max: number): string => `${label}は${min}〜${max}の範囲で入力してください。`,
} as const;

/** Japanese names of call parameters, for messages that name one (others are named as sent). */
export const PARAM_LABELS: Readonly<Record<string, string>> = {
  authKey: '認証キー',
  kw: '検索キーワード',
  postData: '送信データ',
  col: '並べ替え列',
  odr: '並び順',
  srch_name: '検索条件の名前',
  srch_tbl: '一覧',
  srch_kw: '検索キーワード',
  srch_col: '並べ替え列',
  srch_odr: '並び順',
  userEmail: 'メールアドレス',
  userPassword: 'パスワード',
  from: '開始日',
  to: '終了日',
  team: 'チーム',
  coName: '会社名',
  tracking_no: '送り状番号',
  table: 'マスタ',
  cols: 'CSV の列',
  enc: '文字コード',
};

/** The name of a parameter in a message: its Japanese name, else 「name」. */
export const paramLabel = (name: string): string => PARAM_LABELS[name] ?? `「${name}」`;

/**
 * `{r}_csv`: the list's columns or every field (`cols`), in cp932 (default, what Excel opens by
 * double-click) or UTF-8 with a BOM (`enc`).
 */
export const CSV_COLS = ['list', 'all'] as const;
export const CSV_ENCODINGS = ['cp932', 'utf8'] as const;
export type CsvCols = (typeof CSV_COLS)[number];
export type CsvEncoding = (typeof CSV_ENCODINGS)[number];
/**
 * Headers of a CSV answer: the rows it will hold (before the first byte), and how many characters cp932
 * cannot hold were written as `CSV_REPLACEMENT` (an HTTP trailer: known only after the last row).
 */
export const CSV_HEADERS = { rows: 'x-csv-rows', replaced: 'x-csv-replaced' } as const;
export const CSV_REPLACEMENT = '〓';

/** The runtime `config.json` next to index.html (DESIGN §4): the server writes it, the client reads it at start-up. */
export interface RuntimeConfig {
  dbApi: string;
  loginApi: string;
  mapsApiKey: string;
}

export const DEFAULT_CONFIG: RuntimeConfig = { dbApi: '/api/db', loginApi: '', mapsApiKey: '' };

/** `mail_status`: whether mail can be sent (SMTP set up), and why not in Japanese ('' when it can). */
export interface MailStatus {
  ready: boolean;
  problem: string;
}

/** A failed call answers `[{ error }]`. */
export interface ErrorAnswer {
  error: string;
}

/**
 * One use named by a refused delete (`[{ error, usedBy: [...] }]`): records of a resource whose field holds
 * the record or master value, how many, and the list filters that show exactly those records.
 */
export interface UsedBy {
  resource: string;
  /** The resource's Japanese name (顧客). */
  label: string;
  field: string;
  count: number;
  filters: Record<string, string | string[]>;
}

/** A failed login answers `[{ errors: [{ message }] }]`. */
export interface LoginErrorAnswer {
  errors: { message: string }[];
}

/** The logged-in user record returned by the login call (spec §3). */
export interface LoginUser {
  auth_key: string;
  created: string;
  deleted: number;
  modified: string;
  user_email: string;
  user_id: number;
  user_kana: string;
  user_last_login: string | null;
  user_name: string;
  user_role: string;
}

/** One お知らせ of `notice_home` (lib/resources/notice.ts): what the home page shows the caller today. */
export interface HomeNotice {
  id: number;
  title: string;
  body: string;
  from: string;
  to: string;
}

/** Answer of `role_mine`: the caller's role as the database holds it now, and its areas. */
export interface RoleMine {
  user_id: number;
  user_name: string;
  user_role: string;
  areas: RoleAreas;
}

/** Query parameters shared by every `_lst`, `_cnt` and `_pagination` call. */
export interface ListQuery {
  n: number;
  p: number;
  col?: string;
  odr?: 'asc' | 'desc';
  kw?: string;
  /** Filters: name → array value (date ranges are `[from, to]`). */
  postData?: Record<string, FilterValue>;
  cl_id?: number;
}

export type FilterValue = string | number | (string | number)[];

/** Answer of `{resource}_pagination`. */
export interface PaginationAnswer {
  total: number;
  pages: number;
  page: number;
  n: number;
  /** The total passed `LIMITS.countCap`: `total` is the cap and more pages follow. */
  more?: boolean;
}

/**
 * The second element of a `{r}_cnt` answer whose filtered total passed `LIMITS.countCap`: `[10000, { more: true }]` —
 * the first element stays the count (spec §7 "count in the first element"), so a reader of it alone sees 10,000.
 */
export interface CountMore {
  more: true;
}

/** What `count_exact` answers: the exact count, or the job that is counting (`result`: `{ count }`). */
export type CountExactAnswer = { count: number } | { job_id: number };

/** Saved search as stored on the server (spec §3). */
export interface SavedSearch {
  srch_id: number;
  srch_name: string;
  srch_tbl: string;
  srch_kw: string;
  srch_col: string;
  srch_odr: string;
  /** JSON-encoded filter object. */
  postData: string;
}

/** Master table option shape (spec §3). */
export interface MasterOption {
  value: string;
  text: string;
  id: number;
  flg: number;
  checked: boolean;
}

export const LIMITS = {
  defaultPageSize: 10,
  maxPageSize: 1000,
  maxKeyword: 200,
  /** Max characters of an ordinary text field; `memo`-like fields declare their own. */
  maxText: 255,
  maxBodyBytes: 6 * 1024 * 1024,
  /**
   * Uploads (a call's `upload`, server/calls/upload.ts): the most bytes any call may declare for its file, and
   * the text fields beside the file together (its parameters: authKey, kind, a column mapping …).
   */
  maxUploadBytes: 50 * 1024 * 1024,
  maxUploadFieldBytes: 1024 * 1024,
  maxUploadFields: 50,
  /** Auth keys live this long without use. */
  authKeyTtlHours: 12,
  /** Failed logins a counter allows before it delays its subject (server/auth/rate-limit.ts). */
  loginFreeFailures: { pair: 3, account: 5, address: 20 },
  /** The first delay; each further failure doubles it, up to the max. */
  loginFirstDelaySeconds: 1,
  loginMaxDelaySeconds: 300,
  /** A login counter forgets its failures after this long without an attempt. */
  loginWindowMinutes: 15,
  /** An address that logged in to an account stays known to it this long after the last success. */
  loginKnownDays: 30,
  /** Records one `{r}_bulk_save` may carry. */
  maxBulkRows: 1000,
  /** Values one list-valued filter (`in`) may carry. */
  maxFilterValues: 1000,
  /** Nesting depth of a `postData` object. */
  maxJsonDepth: 16,
  /** Integer columns hold 32-bit values on PostgreSQL: every integer a call writes or compares lies in this range. */
  minInteger: -2_147_483_648,
  maxInteger: 2_147_483_647,
  /** Decimal values (REAL columns) stay within what both databases keep without rounding the yen. */
  maxDecimal: 1e12,
  /**
   * A filtered list's total (`{r}_cnt`) is counted up to this many rows: more answer `[cap, { more: true }]`, shown as
   * 「10,000件以上」 with 「正確に数える」 (`count_exact`).
   */
  countCap: 10_000,
  /** `count_exact` counts in the call this long at most, then goes on as a job with progress. */
  countInlineMs: 1000,
} as const;

/** Call names: `{resource}_{verb}` (DESIGN §3). */
export const VERBS = ['lst', 'cnt', 'dtl', 'save', 'del', 'upd', 'pagination', 'bulk_save', 'sum', 'csv'] as const;
export type Verb = (typeof VERBS)[number];
export const callName = (resource: string, verb: Verb): string => `${resource}_${verb}`;
