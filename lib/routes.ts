/**
 * The one route table (spec §2): every hash route with its title, breadcrumb parent, the menu it
 * belongs to, the permission it needs and the screen that draws it. Screens are loaded lazily by
 * kind (components/screens/registry.ts).
 */
import { IMPORT_KIND_PARAM, SYSTEM_IMPORT_TITLES } from './imports/pages';
import type { Area } from './permissions';
import { RESOURCE_NAMES, RESOURCES, type ResourceDef, type ResourceName } from './resources';

/** A generic resource screen; nested ones live under another record's detail route. */
export interface ResourceScreen {
  kind: 'list' | 'new' | 'detail';
  resource: ResourceName;
  /** The route parameter holding the record id (default `id`). */
  idParam?: string;
  /** Under another record: the route parameter holding its id and the `ref` field that points at it. */
  parent?: { param: string; field: string };
}

export type Screen =
  | { kind: 'home' }
  | ResourceScreen
  /** A screen of its own, by name in components/screens/custom-screens.ts. */
  | { kind: 'custom'; name: CustomScreenName };

/** The screens of their own (components/screens/custom-screens.ts loads each; a name missing there does not compile). */
export type CustomScreenName =
  | 'masters' | 'deliveryfee' | 'role-matrix' | 'hod-preview' | 'hod-list' | 'hod-uriage' | 'sales-rental' | 'closing'
  | 'closing-restore' | 'sales-report' | 'order-list' | 'order-form' | 'import' | 'export' | 'data-download' | 'jaccs';

export interface RouteDef {
  /** Pattern with `:param` segments, e.g. `/client/detail/:id`. */
  path: string;
  title: string;
  /** Path of the breadcrumb parent (a list for a detail, …). */
  parent?: string;
  area: Area | null;
  level: 'read' | 'write';
  /** An area the screen's work needs beside its own (JACCS 取込 debits invoices: `SALES_DATA`). */
  needs?: AreaNeed;
  screen: Screen;
  /**
   * Pages of one screen named by a query parameter (/system/import?kind=order is 受注取込): the breadcrumbs end with the
   * page's title after the route's own, which links back to the screen without it.
   */
  pages?: { param: string; titles: Readonly<Record<string, string>> };
}

/** An area at a level, needed beside a route's own area. */
export interface AreaNeed {
  area: Area;
  level: 'read' | 'write';
}

/**
 * What screens made of sales and payment slips need beside the export area: the Yayoi journal (/system/export's
 * 会計連携 tab and its menu entry) and JACCS 取込 (debits of invoices, paid as payments). A role without sales (配送) is
 * not offered them.
 */
export const SALES_DATA: AreaNeed = { area: 'sales', level: 'read' };

const list = (resource: ResourceName): Screen => ({ kind: 'list', resource });
const create = (resource: ResourceName, parent?: ResourceScreen['parent']): Screen => ({ kind: 'new', resource, parent });
const detail = (resource: ResourceName, idParam: string, parent?: ResourceScreen['parent']): Screen => ({ kind: 'detail', resource, idParam, parent });
const custom = (name: CustomScreenName): Screen => ({ kind: 'custom', name });
/** Records under a customer: `/client/detail/:id/…`. */
const underClient = { param: 'id', field: 'cl_id' };

const r = (path: string, title: string, area: Area | null, screen: Screen, extra: Partial<RouteDef> = {}): RouteDef => ({
  path, title, area, level: 'read', screen, ...extra,
});

const ORDER_STATUS_LISTS = [
  ['untreated', '未処理'], ['pending', '保留'], ['waitshipping', '出荷待ち'], ['shipped', '出荷済'], ['processed', '処理済'],
] as const;

/** Records under a customer's detail: `/client/detail/:id/{name}/…` (ScreensDef.underClient). */
const CLIENT_DETAIL = '/client/detail/:id';

/**
 * A resource's generic routes, made from its declaration's `screens` (lib/resources/types.ts ScreensDef): list, new and
 * detail (a settings resource: its one record at `basePath`), then those under a customer's detail. The detail of a
 * resource with an owner (a user's own profile) is open to everyone; the server refuses other users' records.
 */
function resourceRoutes(name: ResourceName): RouteDef[] {
  const def: ResourceDef = RESOURCES[name];
  const s = def.screens;
  if (!s) return [];
  if (def.single !== undefined) return s.detail ? [r(def.basePath, s.detail, def.area, { kind: 'detail', resource: name }, { parent: s.parent })] : [];
  const listPath = s.listPath ?? `${def.basePath}/list`;
  const idParam = s.id ?? 'id';
  const own: ResourceScreen = s.id ? { kind: 'detail', resource: name, idParam } : { kind: 'detail', resource: name };
  const routes: RouteDef[] = [];
  if (s.list) routes.push(r(listPath, s.list, def.area, list(name)));
  if (s.new) routes.push(r(`${def.basePath}/new`, s.new, def.area, create(name), { parent: listPath, level: 'write' }));
  if (s.detail) routes.push(r(s.detailPath ?? `${def.basePath}/detail/:${idParam}`, s.detail, def.owner ? null : def.area, own, { parent: listPath }));
  const nested = s.underClient;
  if (nested?.new) routes.push(r(`${CLIENT_DETAIL}/${nested.newPath ?? `${name}/new`}`, nested.new, def.area, create(name, underClient), { parent: CLIENT_DETAIL, level: 'write' }));
  if (nested?.detail) routes.push(r(`${CLIENT_DETAIL}/${name}/:${idParam}`, nested.detail, def.area, detail(name, idParam, underClient), { parent: CLIENT_DETAIL }));
  return routes;
}

/** Screens of their own, written out; the generic resource screens follow, made from the declarations. */
const CUSTOM_ROUTES: readonly RouteDef[] = [
  r('/', 'ホーム', null, { kind: 'home' }),
  // 配送 (HOD)
  r('/hod/list', '配送リスト', 'hod', custom('hod-list')),
  r('/hod/uriage', '配送売上', 'hod', custom('hod-uriage')),
  // 受注
  ...ORDER_STATUS_LISTS.map(([key, label]) => r(`/orders/list/${key}`, `受注一覧（${label}）`, 'order', custom('order-list'))),
  r('/orders/list/search', '受注検索', 'order', custom('order-list')),
  r('/orders/detail/:odr', '受注詳細', 'order', custom('order-form'), { parent: '/orders/list/search' }),
  r('/orders/copy/:odr', '受注複製', 'order', custom('order-form'), { parent: '/orders/list/search', level: 'write' }),
  r('/orders/new', '新規受注', 'order', custom('order-form'), { level: 'write' }),
  r('/orders/hod', '定期配送の受注生成', 'order', custom('hod-preview')),
  // 顧客
  r('/client/import', '顧客取込', 'client', custom('import'), { parent: '/client/list', level: 'write' }),
  // 売上
  r('/sales/rental', '月次サーバーレンタル', 'sales', custom('sales-rental')),
  r('/closing', '締め処理', 'sales', custom('closing'), { level: 'write' }),
  r('/restore', '締め戻し', 'sales', custom('closing-restore'), { level: 'write' }),
  r('/salesreport', '売上レポート', 'sales', custom('sales-report')),
  // ユーザー
  r('/user/role/', '権限管理', 'user_admin', custom('role-matrix'), { level: 'write' }),
  // システム
  r('/system/master/', 'マスタ管理', 'system', custom('masters')),
  r('/system/delivery', '配送時間帯', 'system', custom('masters')),
  r('/system/deliveryfee', '都道府県別送料', 'system', custom('deliveryfee')),
  r('/system/import', 'データ取込', 'import', custom('import'), { pages: { param: IMPORT_KIND_PARAM, titles: SYSTEM_IMPORT_TITLES } }),
  r('/system/jaccs', 'JACCS 取込', 'import', custom('jaccs'), { needs: SALES_DATA }),
  r('/system/export', '送り状出力・会計連携', 'import', custom('export')),
  r('/system/download', 'データダウンロード', 'download', custom('data-download'), { level: 'write' }),
  r('/system/itemcode', '商品分類', 'system', custom('masters')),
];

export const ROUTES: readonly RouteDef[] = [...CUSTOM_ROUTES, ...RESOURCE_NAMES.flatMap(resourceRoutes)];

export interface Match {
  route: RouteDef;
  params: Record<string, string>;
}

const compiled = ROUTES.map((route) => {
  const names: string[] = [];
  const source = route.path
    .replace(/\/$/, '')
    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    .replace(/:(\w+)/g, (_, name: string) => {
      names.push(name);
      return '([^/]+)';
    });
  return { route, names, re: new RegExp(`^${source}/?$`) };
});

/**
 * The route a hash path opens, with its parameters.
 * @example matchRoute('/client/detail/12') // { route: <顧客詳細>, params: { id: '12' } }
 */
export function matchRoute(path: string): Match | undefined {
  const clean = (path.split('?')[0] || '/').replace(/\/+$/, '') || '/';
  for (const { route, names, re } of compiled) {
    const m = re.exec(clean === '/' ? '' : clean);
    if (m) return { route, params: Object.fromEntries(names.map((n, i) => [n, decodeURIComponent(m[i + 1])])) };
  }
  return undefined;
}

/** Fills a pattern's parameters: `fillPath('/client/detail/:id', { id: '3' })` → `/client/detail/3`. */
export function fillPath(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

/**
 * Breadcrumb trail from home to the route: names with a path where one exists; a page the query names (`RouteDef.pages`)
 * last, after its screen.
 * @example breadcrumbs(matchRoute('/system/import')!, new URLSearchParams('kind=order')) // ホーム › データ取込 (/system/import) › 受注取込
 */
export function breadcrumbs(match: Match, query?: URLSearchParams): { label: string; path?: string }[] {
  const trail: { label: string; path?: string }[] = [];
  let current: RouteDef | undefined = match.route;
  while (current) {
    const missing = (current.path.match(/:(\w+)/g) ?? []).some((p) => !(p.slice(1) in match.params));
    trail.unshift({ label: current.title, path: missing ? undefined : fillPath(current.path, match.params) });
    const parent: string | undefined = current.parent;
    current = parent ? ROUTES.find((x) => x.path === parent) : undefined;
  }
  if (match.route.path !== '/') trail.unshift({ label: 'ホーム', path: '/' });
  const { pages } = match.route;
  const page = pages && query ? pages.titles[query.get(pages.param) ?? ''] : undefined;
  if (page) trail.push({ label: page });
  trail[trail.length - 1] = { label: trail[trail.length - 1].label };
  return trail;
}

/** Header popover menus (spec §2), in order. `self` is replaced by the user's own profile path. */
export interface MenuEntry {
  label: string;
  path: string;
  /** An area the entry's content needs beside its route's (a tab of a shared screen: 会計連携 needs `SALES_DATA`). */
  needs?: AreaNeed;
}

/** `holds`: what the menu's screens are for, in the home page's sentence that names the menus a role has. */
export const HEADER_MENUS: readonly { key: string; label: string; holds?: string; entries: readonly MenuEntry[] }[] = [
  {
    key: 'input', label: '入力', holds: '取込・出力', entries: [
      { label: '受注取込', path: '/system/import?kind=order' },
      { label: '送り状取込', path: '/system/import?kind=waybill' },
      { label: 'JACCS 取込', path: '/system/jaccs' },
      { label: '送り状出力', path: '/system/export?tab=b2' },
      { label: '会計連携（弥生）', path: '/system/export?tab=yayoi', needs: SALES_DATA },
      { label: 'データダウンロード', path: '/system/download' },
    ],
  },
  {
    key: 'sales', label: '売上', holds: '伝票・締め', entries: [
      { label: '売上伝票', path: '/sales/list' },
      { label: '月次サーバーレンタル', path: '/sales/rental' },
      { label: '入金伝票', path: '/payment/list' },
      { label: '締め処理', path: '/closing' },
      { label: '請求一覧', path: '/billing/list' },
      { label: '請求書の保存', path: '/billing/archive' },
      { label: '締め戻し', path: '/restore' },
      { label: '売上レポート', path: '/salesreport' },
    ],
  },
  {
    key: 'system', label: 'システム', holds: '設定', entries: [
      { label: 'マスタ管理', path: '/system/master/' },
      { label: '商品分類', path: '/system/itemcode' },
      { label: '税率', path: '/tax/list' },
      { label: 'ユーザー一覧', path: '/user/list' },
      { label: 'ユーザー追加', path: '/user/new' },
      { label: '倉庫', path: '/warehouse/list' },
      { label: '配送時間帯', path: '/system/delivery' },
      { label: '都道府県別送料', path: '/system/deliveryfee' },
      { label: '受注設定', path: '/system/orders' },
      { label: '自社情報', path: '/system/company' },
      { label: '操作ログ', path: '/system/log' },
      { label: 'メールテンプレート', path: '/system/mailtemplate/list' },
      { label: 'お知らせ', path: '/system/notice/list' },
    ],
  },
  {
    key: 'user', label: 'ユーザー', entries: [
      { label: 'プロフィール', path: '/user/detail/self' },
      { label: 'ユーザー一覧', path: '/user/list' },
      { label: 'ユーザー追加', path: '/user/new' },
      { label: '権限管理', path: '/user/role/' },
    ],
  },
];

/** Side menu groups (the main work areas). */
export const SIDE_MENU: readonly { label: string; icon: string; entries: readonly MenuEntry[] }[] = [
  { label: 'ホーム', icon: '⌂', entries: [{ label: 'ホーム', path: '/' }] },
  {
    label: '受注', icon: '受', entries: [
      ...ORDER_STATUS_LISTS.map(([key, label]) => ({ label, path: `/orders/list/${key}` })),
      { label: '受注検索', path: '/orders/list/search' },
      { label: '新規受注', path: '/orders/new' },
      { label: '定期配送の受注生成', path: '/orders/hod' },
    ],
  },
  {
    label: '配送', icon: '配', entries: [
      { label: '配送リスト', path: '/hod/list' },
      { label: '配送実績', path: '/hod/report/' },
      { label: '配送売上', path: '/hod/uriage' },
    ],
  },
  {
    label: '顧客', icon: '顧', entries: [
      { label: '顧客一覧', path: '/client/list' },
      { label: '顧客登録', path: '/client/new' },
      { label: '顧客取込', path: '/client/import' },
    ],
  },
  {
    label: '営業', icon: '営', entries: [
      { label: '対応履歴', path: '/contact/list' },
      { label: '営業報告', path: '/report/list' },
      { label: '日報', path: '/daily/list' },
    ],
  },
  {
    label: '在庫', icon: '庫', entries: [
      { label: '商品', path: '/item/list' },
      { label: 'サーバー', path: '/server/list' },
      { label: 'ボトル', path: '/bottle/list' },
      { label: '倉庫', path: '/warehouse/list' },
    ],
  },
];
