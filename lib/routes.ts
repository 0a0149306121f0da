/**
 * The one route table (spec §2): every hash route with its title, breadcrumb parent, the menu it
 * belongs to, the permission it needs and the screen that draws it. Screens are loaded lazily by
 * kind (components/screens/registry.ts).
 */
import { IMPORT_KIND_PARAM, SYSTEM_IMPORT_TITLES } from './imports/pages';
import type { Area } from './permissions';
import type { ResourceName } from './resources';

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

export const ROUTES: readonly RouteDef[] = [
  r('/', 'ホーム', null, { kind: 'home' }),
  // 配送 (HOD)
  r('/hod/list', '配送リスト', 'hod', custom('hod-list')),
  r('/hod/report/', '配送実績', 'hod', list('hodreport')),
  r('/hod/report/new', '配送実績登録', 'hod', create('hodreport'), { parent: '/hod/report/', level: 'write' }),
  r('/hod/report/:hod', '配送実績詳細', 'hod', detail('hodreport', 'hod'), { parent: '/hod/report/' }),
  r('/hod/uriage', '配送売上', 'hod', custom('hod-uriage')),
  // 受注
  ...ORDER_STATUS_LISTS.map(([key, label]) => r(`/orders/list/${key}`, `受注一覧（${label}）`, 'order', custom('order-list'))),
  r('/orders/list/search', '受注検索', 'order', custom('order-list')),
  r('/orders/detail/:odr', '受注詳細', 'order', custom('order-form'), { parent: '/orders/list/search' }),
  r('/orders/copy/:odr', '受注複製', 'order', custom('order-form'), { parent: '/orders/list/search', level: 'write' }),
  r('/orders/new', '新規受注', 'order', custom('order-form'), { level: 'write' }),
  r('/orders/hod', '定期配送の受注生成', 'order', custom('hod-preview')),
  // 対応履歴
  r('/contact/list', '対応履歴一覧', 'crm', list('contact')),
  r('/contact/new', '対応履歴登録', 'crm', create('contact'), { parent: '/contact/list', level: 'write' }),
  r('/contact/detail/:con', '対応履歴詳細', 'crm', detail('contact', 'con'), { parent: '/contact/list' }),
  // 顧客
  r('/client/list', '顧客一覧', 'client', { kind: 'list', resource: 'client' }),
  r('/client/new', '顧客登録', 'client', { kind: 'new', resource: 'client' }, { parent: '/client/list', level: 'write' }),
  r('/client/import', '顧客取込', 'client', custom('import'), { parent: '/client/list', level: 'write' }),
  r('/client/detail/:id', '顧客詳細', 'client', { kind: 'detail', resource: 'client' }, { parent: '/client/list' }),
  r('/client/detail/:id/contact/new', '対応履歴登録', 'crm', create('contact', underClient), { parent: '/client/detail/:id', level: 'write' }),
  r('/client/detail/:id/contact/:con', '対応履歴', 'crm', detail('contact', 'con', underClient), { parent: '/client/detail/:id' }),
  r('/client/detail/:id/report/new', '営業報告登録', 'crm', create('report', underClient), { parent: '/client/detail/:id', level: 'write' }),
  r('/client/detail/:id/report/:rep', '営業報告', 'crm', detail('report', 'rep', underClient), { parent: '/client/detail/:id' }),
  r('/client/detail/:id/agreement/:agr', '契約詳細', 'client', detail('agreement', 'agr', underClient), { parent: '/client/detail/:id' }),
  r('/client/detail/:id/agreement_new', '契約登録', 'client', create('agreement', underClient), { parent: '/client/detail/:id', level: 'write' }),
  // 商品・サーバー・ボトル
  r('/item/list', '商品一覧', 'stock', list('item')),
  r('/item/new', '商品登録', 'stock', create('item'), { parent: '/item/list', level: 'write' }),
  r('/item/detail/:ite', '商品詳細', 'stock', detail('item', 'ite'), { parent: '/item/list' }),
  r('/server/list', 'サーバー一覧', 'stock', list('server')),
  r('/server/new', 'サーバー登録', 'stock', create('server'), { parent: '/server/list', level: 'write' }),
  r('/server/detail/:ser', 'サーバー詳細', 'stock', detail('server', 'ser'), { parent: '/server/list' }),
  r('/bottle/list', 'ボトル一覧', 'stock', list('bottle')),
  r('/bottle/new', 'ボトル登録', 'stock', create('bottle'), { parent: '/bottle/list', level: 'write' }),
  r('/bottle/detail/:bot', 'ボトル詳細', 'stock', detail('bottle', 'bot'), { parent: '/bottle/list' }),
  r('/client/detail/:id/bottle/new', 'ボトル登録', 'stock', create('bottle', underClient), { parent: '/client/detail/:id', level: 'write' }),
  r('/client/detail/:id/bottle/:bot', 'ボトル', 'stock', detail('bottle', 'bot', underClient), { parent: '/client/detail/:id' }),
  r('/client/detail/:id/server/new', 'サーバー設置登録', 'stock', create('server', underClient), { parent: '/client/detail/:id', level: 'write' }),
  r('/client/detail/:id/hodpause/new', '休配・スキップ登録', 'hod', create('hodpause', underClient), { parent: '/client/detail/:id', level: 'write' }),
  r('/client/detail/:id/hodpause/:hp', '休配・スキップ', 'hod', detail('hodpause', 'hp', underClient), { parent: '/client/detail/:id' }),
  r('/client/detail/:id/sales/new', '売上伝票登録', 'sales', create('sales', underClient), { parent: '/client/detail/:id', level: 'write' }),
  r('/client/detail/:id/sales/:sal', '売上伝票', 'sales', detail('sales', 'sal', underClient), { parent: '/client/detail/:id' }),
  r('/client/detail/:id/payment/new', '入金伝票登録', 'sales', create('payment', underClient), { parent: '/client/detail/:id', level: 'write' }),
  r('/client/detail/:id/payment/:pay', '入金伝票', 'sales', detail('payment', 'pay', underClient), { parent: '/client/detail/:id' }),
  r('/client/detail/:id/server/:ser', '設置サーバー', 'stock', detail('server', 'ser', underClient), { parent: '/client/detail/:id' }),
  // 営業報告・日報
  r('/report/list', '営業報告一覧', 'crm', list('report')),
  r('/report/new', '営業報告登録', 'crm', create('report'), { parent: '/report/list', level: 'write' }),
  r('/report/detail/:rep', '営業報告詳細', 'crm', detail('report', 'rep'), { parent: '/report/list' }),
  r('/daily/list', '日報一覧', 'crm', list('daily')),
  r('/daily/new', '日報登録', 'crm', create('daily'), { parent: '/daily/list', level: 'write' }),
  r('/daily/detail/:rep', '日報詳細', 'crm', detail('daily', 'rep'), { parent: '/daily/list' }),
  // 倉庫
  r('/warehouse/list', '倉庫一覧', 'stock', list('souko')),
  r('/warehouse/new', '倉庫登録', 'stock', create('souko'), { parent: '/warehouse/list', level: 'write' }),
  r('/warehouse/detail/:war', '倉庫詳細', 'stock', detail('souko', 'war'), { parent: '/warehouse/list' }),
  // 売上
  r('/sales/list', '売上伝票一覧', 'sales', list('sales')),
  r('/sales/new', '売上伝票登録', 'sales', create('sales'), { parent: '/sales/list', level: 'write' }),
  r('/sales/detail/:sal', '売上伝票詳細', 'sales', detail('sales', 'sal'), { parent: '/sales/list' }),
  r('/sales/rental', '月次サーバーレンタル', 'sales', custom('sales-rental')),
  r('/payment/list', '入金伝票一覧', 'sales', list('payment')),
  r('/payment/new', '入金伝票登録', 'sales', create('payment'), { parent: '/payment/list', level: 'write' }),
  r('/payment/detail/:pay', '入金伝票詳細', 'sales', detail('payment', 'pay'), { parent: '/payment/list' }),
  r('/closing', '締め処理', 'sales', custom('closing'), { level: 'write' }),
  r('/billing/list', '請求一覧', 'sales', list('billing')),
  r('/billing/detail/:bli', '請求詳細', 'sales', detail('billing', 'bli'), { parent: '/billing/list' }),
  r('/restore', '締め戻し', 'sales', custom('closing-restore'), { level: 'write' }),
  r('/salesreport', '売上レポート', 'sales', custom('sales-report')),
  // 税率
  r('/tax/list', '税率一覧', 'system', list('tax')),
  r('/tax/new', '税率登録', 'system', create('tax'), { parent: '/tax/list', level: 'write' }),
  r('/tax/detail/:tax', '税率詳細', 'system', detail('tax', 'tax'), { parent: '/tax/list' }),
  // ユーザー
  r('/user/list', 'ユーザー一覧', 'user_admin', list('user')),
  r('/user/new', 'ユーザー追加', 'user_admin', create('user'), { parent: '/user/list', level: 'write' }),
  // Open to everyone: one's own profile (ResourceDef.owner); the server refuses other users' records.
  r('/user/detail/:id', 'ユーザー情報', null, detail('user', 'id'), { parent: '/user/list' }),
  r('/user/role/', '権限管理', 'user_admin', custom('role-matrix'), { level: 'write' }),
  // システム
  r('/system/master/', 'マスタ管理', 'system', custom('masters')),
  r('/system/delivery', '配送時間帯', 'system', custom('masters')),
  r('/system/deliveryfee', '都道府県別送料', 'system', custom('deliveryfee')),
  r('/system/orders', '受注設定', 'system', { kind: 'detail', resource: 'ordersetting' }),
  r('/system/company', '自社情報', 'system', { kind: 'detail', resource: 'company' }),
  r('/system/import', 'データ取込', 'import', custom('import'), { pages: { param: IMPORT_KIND_PARAM, titles: SYSTEM_IMPORT_TITLES } }),
  r('/system/jaccs', 'JACCS 取込', 'import', custom('jaccs'), { needs: SALES_DATA }),
  r('/system/export', '送り状出力・会計連携', 'import', custom('export')),
  r('/system/yayoi/setting', '弥生会計の連携設定', 'import', { kind: 'detail', resource: 'yayoisetting' }, { parent: '/system/export' }),
  r('/system/download', 'データダウンロード', 'download', custom('data-download'), { level: 'write' }),
  r('/system/log', '操作ログ', 'system', list('log')),
  r('/system/mailtemplate/list', 'メールテンプレート一覧', 'system', list('mailtemplate')),
  r('/system/mailtemplate/new', 'メールテンプレート登録', 'system', create('mailtemplate'), { parent: '/system/mailtemplate/list', level: 'write' }),
  r('/system/mailtemplate/detail/:mt', 'メールテンプレート詳細', 'system', detail('mailtemplate', 'mt'), { parent: '/system/mailtemplate/list' }),
  r('/system/itemcode', '商品分類', 'system', custom('masters')),
];

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
