import { describe, expect, it } from 'vitest';
import { ROLE_TABLE } from '@/lib/permissions';
import { breadcrumbs, HEADER_MENUS, matchRoute, ROUTES, SIDE_MENU } from '@/lib/routes';

describe('route table', () => {
  it('has every route once', () => {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
  });
  it('matches detail routes with parameters', () => {
    expect(matchRoute('/client/detail/12')).toMatchObject({ route: { title: '顧客詳細' }, params: { id: '12' } });
    expect(matchRoute('/client/detail/12/report/new')?.route.title).toBe('営業報告登録');
    expect(matchRoute('/client/detail/12/report/7')?.params).toEqual({ id: '12', rep: '7' });
    expect(matchRoute('/hod/report/')?.route.title).toBe('配送実績');
    expect(matchRoute('/system/import?kind=waybill')?.route.title).toBe('データ取込');
    expect(matchRoute('/system/import?kind=waybill_sagawa')?.route.title).toBe('データ取込');
    expect(matchRoute('/nowhere')).toBeUndefined();
  });
  it('builds breadcrumbs with links where a path exists', () => {
    const match = matchRoute('/client/detail/5/agreement/3');
    expect(match && breadcrumbs(match)).toEqual([
      { label: 'ホーム', path: '/' },
      { label: '顧客一覧', path: '/client/list' },
      { label: '顧客詳細', path: '/client/detail/5' },
      { label: '契約詳細' },
    ]);
  });
  it('an import screen\'s breadcrumbs name it: データ取込 links back to the chooser, the kind comes last; no kind or an unknown one ends at データ取込', () => {
    const match = matchRoute('/system/import?kind=order')!;
    expect(breadcrumbs(match, new URLSearchParams('kind=order'))).toEqual([{ label: 'ホーム', path: '/' }, { label: 'データ取込', path: '/system/import' }, { label: '受注取込' }]);
    expect(breadcrumbs(match, new URLSearchParams('kind=waybill_sagawa')).at(-1)).toEqual({ label: '送り状取込（佐川 e飛伝）' });
    expect(breadcrumbs(match, new URLSearchParams(''))).toEqual([{ label: 'ホーム', path: '/' }, { label: 'データ取込' }]);
    expect(breadcrumbs(match, new URLSearchParams('kind=nothing')).at(-1)).toEqual({ label: 'データ取込' });
    expect(breadcrumbs(matchRoute('/client/import')!, new URLSearchParams()).at(-1)).toEqual({ label: '顧客取込' });
  });
  it('has a route for every menu entry', () => {
    const entries = [...HEADER_MENUS.flatMap((m) => m.entries), ...SIDE_MENU.flatMap((m) => m.entries)];
    for (const entry of entries) expect(matchRoute(entry.path.replace('/self', '/1')), entry.path).toBeDefined();
  });
  it('gives the input menu the spec entries and the Yayoi export after 送り状出力, data download for the download area (管理 only in the role table)', () => {
    const input = HEADER_MENUS.find((m) => m.key === 'input')!;
    expect(input.entries.map((e) => e.label)).toEqual(['受注取込', '送り状取込', 'JACCS 取込', '送り状出力', '会計連携（弥生）', 'データダウンロード']);
    expect(matchRoute('/system/download')?.route).toMatchObject({ area: 'download', level: 'write' });
    expect(Object.keys(ROLE_TABLE).filter((role) => ROLE_TABLE[role].download === 'write')).toEqual(['管理']);
  });
  it('offers 受注設定 (the default warehouse of imported orders) in the システム menu', () => {
    const system = HEADER_MENUS.find((m) => m.key === 'system')!;
    expect(system.entries.find((e) => e.label === '受注設定')?.path).toBe('/system/orders');
    expect(matchRoute('/system/orders')?.route.title).toBe('受注設定');
  });
});
