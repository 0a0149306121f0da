/**
 * Long work run as a job (docs/architecture.md "Jobs"): its kinds with the area they belong to, its states and
 * what `job_dtl` / `job_lst` answer — shared by the server (server/jobs) and the screens that watch a job.
 */
import { closingLabel } from './closing/period';
import { importKindInfo } from './imports/registry';
import { monthLabel } from './format';
import type { Area } from './permissions';
import { resourceNamed } from './resources';

/**
 * The kinds of job, each with the area whose readers see it (and whose writers may start or cancel it), its name and
 * how its scope reads (`scopeText`, default: a date range `from..to` as 「from〜to」).
 */
export const JOB_KINDS = {
  hod_generate: { area: 'order', label: '定期配送の受注作成' },
  /** Scope: the month `YYYYMM` (server/sales), named as the rental screen names it. */
  rental_generate: { area: 'sales', label: '月次サーバーレンタルの売上作成', scopeText: (scope: string) => monthLabel(scope) },
  /** Scope `{sime_gp}:{sime_ym}` (server/closing). */
  closing_run: { area: 'sales', label: '締め処理', scopeText: (scope: string) => closingOfScope(scope) },
  /** Scope `{sime_gp}:{sime_ym}` (server/billing). */
  billing_pdf_batch: { area: 'sales', label: '請求書の一括発行', scopeText: (scope: string) => closingOfScope(scope) },
  /** Scope `{sime_gp}:{sime_ym}` (server/billing/mail.ts). */
  billing_mail_batch: { area: 'sales', label: '請求書の一括メール送信', scopeText: (scope: string) => closingOfScope(scope) },
  /** Scope: the import kind (server/imports); a kind of another area than `import` names it in `scopeAreas`. */
  import_commit: {
    area: 'import', label: 'データ取込', scopeAreas: { client: 'client', order: 'order', waybill: 'order', waybill_sagawa: 'order' },
    scopeText: (scope: string) => importKindInfo(scope)?.label ?? scope,
  },
  /**
   * Scope `{resource}:{digest of the list's conditions}` (server/resources/list-count.ts): one count of a list at a
   * time; it belongs to the resource's area (`scopeArea`).
   */
  count_exact: {
    area: 'client', label: '件数の集計', scopeArea: (scope: string) => resourceNamed(scope.split(':')[0])?.area,
    scopeText: (scope: string) => resourceNamed(scope.split(':')[0])?.label ?? '',
  },
} as const satisfies Record<string, {
  area: Area; label: string; scopeAreas?: Readonly<Record<string, Area>>; scopeArea?: (scope: string) => Area | undefined; scopeText?: (scope: string) => string;
}>;

/** A closing's scope `{sime_gp}:{sime_ym}` in words (「2026年11月 20日締め」); anything else as it is. */
function closingOfScope(scope: string): string {
  const [gp, ym] = scope.split(':');
  return gp && ym && /^\d{6}$/.test(ym) ? closingLabel(gp, ym) : scope;
}

/**
 * How a job names itself on screens and in messages: its kind and what it works on, in words.
 * @example jobTitle('closing_run', '20:202611') // '締め処理（2026年11月 20日締め）'
 * @example jobTitle('hod_generate', '2026-05-01..2026-05-31') // '定期配送の受注作成（2026-05-01〜2026-05-31）'
 */
export function jobTitle(kind: JobKind, scope: string): string {
  const info: { label: string; scopeText?: (scope: string) => string } = JOB_KINDS[kind];
  return `${info.label}${scope ? `（${info.scopeText ? info.scopeText(scope) : scope.replace('..', '〜')}）` : ''}`;
}

export type JobKind = keyof typeof JOB_KINDS;
/**
 * The area a job belongs to: its kind's, or — a kind whose scopes belong to different areas (an import of customers is
 * the 顧客 area's, an import of orders the データ取込 area's) — its scope's.
 * @example jobArea('import_commit', 'client') // 'client'
 */
export function jobArea(kind: JobKind, scope?: string): Area {
  const info: { area: Area; scopeAreas?: Readonly<Record<string, Area>>; scopeArea?: (scope: string) => Area | undefined } = JOB_KINDS[kind];
  if (scope !== undefined && info.scopeArea) return info.scopeArea(scope) ?? info.area;
  return (scope !== undefined && info.scopeAreas && Object.hasOwn(info.scopeAreas, scope) ? info.scopeAreas[scope] : undefined) ?? info.area;
}

export const isJobKind = (value: string): value is JobKind => Object.hasOwn(JOB_KINDS, value);

export const JOB_STATES = ['running', 'done', 'failed', 'cancelled'] as const;
export type JobState = (typeof JOB_STATES)[number];
export const isJobState = (value: string): value is JobState => (JOB_STATES as readonly string[]).includes(value);

/** One job as `job_dtl` and `job_lst` answer it (`result` is the work's answer once done; `error` a Japanese message). */
export interface JobInfo<R = unknown> {
  job_id: number;
  kind: JobKind;
  /** What the job works on, e.g. a date range `2026-05-01..2026-05-31`: one running job per kind and scope. */
  scope: string;
  params: Record<string, unknown>;
  state: JobState;
  done: number;
  total: number;
  result: R | null;
  error: string;
  /** A cancel was asked for and the work has not stopped yet. */
  cancelling: boolean;
  started: string;
  finished: string;
  user_id: number;
  user_name: string;
}

/** A call that starts a job answers its id. */
export interface JobStarted {
  job_id: number;
}

/** How far a job is, as a whole percentage (0 while the total is unknown). */
export const jobPercent = (job: Pick<JobInfo, 'done' | 'total' | 'state'>): number =>
  job.state === 'done' ? 100 : job.total > 0 ? Math.min(100, Math.floor((job.done * 100) / job.total)) : 0;
