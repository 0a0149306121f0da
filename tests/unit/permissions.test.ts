import { describe, expect, it } from 'vitest';
import { entryOpens, menuGuide, routeAccess, visibleEntries, workMenus } from '@/lib/client/auth/session';
import { recordAccess } from '@/lib/list/record-access';
import { fromForm } from '@/lib/list/record-mapper';
import { ALL_WRITE, can, effectiveAreas, normalizeAreas, ROLE_TABLE, type RoleAreas } from '@/lib/permissions';
import { clientResource } from '@/lib/resources/client';
import { salesResource } from '@/lib/resources/sales';
import { userResource } from '@/lib/resources/user';
import { HEADER_MENUS, matchRoute } from '@/lib/routes';

const field = (name: string) => userResource.fields.find((f) => f.name === name)!;

describe('permissions from stored areas', () => {
  it('normalises stored areas: every area, unknown areas and levels dropped, bad JSON is nothing', () => {
    const areas = normalizeAreas('{"client":"write","crm":"admin","spaceship":"read"}');
    expect(areas.client).toBe('write');
    expect(areas.crm).toBe('none');
    expect(Object.keys(areas)).not.toContain('spaceship');
    expect(Object.values(normalizeAreas('not json')).every((l) => l === 'none')).toBe(true);
  });

  it('gives 管理 every area at write whatever is stored', () => {
    expect(effectiveAreas('管理', '{}')).toEqual(ALL_WRITE);
    expect(effectiveAreas('配送', '{"client":"read"}').client).toBe('read');
  });

  it('compares levels: write includes read, nothing loaded allows nothing', () => {
    const areas: RoleAreas = { client: 'write', crm: 'read' };
    expect(can(areas, 'client', 'read')).toBe(true);
    expect(can(areas, 'crm', 'write')).toBe(false);
    expect(can(areas, 'sales', 'read')).toBe(false);
    expect(can(null, 'client', 'read')).toBe(false);
  });
});

describe('routes and menus follow the loaded areas', () => {
  const delivery = { role: '配送', areas: { client: 'read', crm: 'none', import: 'read' } as RoleAreas };

  it('opens a route only at the level its area needs', () => {
    expect(routeAccess(matchRoute('/client/list')!, delivery)).toBe('ok');
    expect(routeAccess(matchRoute('/client/new')!, delivery)).toBe('forbidden');
    expect(routeAccess(matchRoute('/contact/list')!, delivery)).toBe('forbidden');
    expect(routeAccess(matchRoute('/contact/list')!, { ...delivery, areas: { crm: 'read' } })).toBe('ok');
    expect(routeAccess(matchRoute('/client/list')!, { role: '配送', areas: null })).toBe('forbidden');
  });

  it('keeps admin-only routes and entries for 管理, and opens everyone\'s profile route', () => {
    expect(routeAccess(matchRoute('/user/role/')!, { role: '営業', areas: { user_admin: 'write' } })).toBe('forbidden');
    expect(routeAccess(matchRoute('/user/role/')!, { role: '管理', areas: ALL_WRITE })).toBe('ok');
    expect(routeAccess(matchRoute('/user/detail/7')!, delivery)).toBe('ok');
    // データダウンロード is the `download` area's (what the server's download_table asks): the role table decides, not the role's name.
    expect(entryOpens({ label: 'データダウンロード', path: '/system/download' }, { role: '営業', areas: ROLE_TABLE['営業'] })).toBe(false);
    expect(entryOpens({ label: 'データダウンロード', path: '/system/download' }, { role: '営業', areas: ALL_WRITE })).toBe(true);
    expect(entryOpens({ label: '売上伝票', path: '/sales/list' }, delivery)).toBe(false);
    expect(entryOpens({ label: '受注取込', path: '/system/import?kind=order' }, delivery)).toBe(true);
  });

  it('shows every header menu by role, the System menu too: no user management for 経理 and 配送, no sales data for 配送', () => {
    const menus = (role: string) => Object.fromEntries(workMenus({ role, userId: 7, areas: ROLE_TABLE[role] }).map((m) => [m.label, m.entries.map((e) => e.label)]));
    const system = HEADER_MENUS.find((m) => m.key === 'system')!.entries.map((e) => e.label).filter((l) => !l.startsWith('ユーザー'));
    expect(menus('配送')).toEqual({ 入力: ['受注取込', '送り状取込', '送り状出力'], システム: system });
    expect(menus('経理')).toEqual({ 入力: ['受注取込', '送り状取込', 'JACCS 取込', '送り状出力', '会計連携（弥生）'], 売上: expect.any(Array) as unknown, システム: system });
    expect(Object.values(menus('管理')).flat()).toEqual(expect.arrayContaining(['ユーザー一覧', 'データダウンロード', '会計連携（弥生）']));
    // JACCS 取込 works on invoices: its route needs the sales area beside the export area.
    expect(routeAccess(matchRoute('/system/jaccs')!, { role: '配送', areas: ROLE_TABLE['配送'] })).toBe('forbidden');
    expect(routeAccess(matchRoute('/system/jaccs')!, { role: '経理', areas: ROLE_TABLE['経理'] })).toBe('ok');
    expect(visibleEntries(HEADER_MENUS.find((m) => m.key === 'user')!.entries, { role: '経理', userId: 7, areas: ROLE_TABLE['経理'] })).toEqual([{ label: 'プロフィール', path: '/user/detail/7' }]);
  });

  it('names on the home page only the header menus the role has', () => {
    expect(menuGuide(workMenus({ role: '配送', userId: 7, areas: ROLE_TABLE['配送'] }))).toBe('左のメニューで日々の業務画面を、上部の「入力」「システム」から取込・出力・設定の画面を開けます。');
    expect(menuGuide(workMenus({ role: '経理', userId: 7, areas: ROLE_TABLE['経理'] }))).toBe('左のメニューで日々の業務画面を、上部の「入力」「売上」「システム」から取込・出力・伝票・締め・設定の画面を開けます。');
    expect(menuGuide([])).toBe('左のメニューで日々の業務画面を開けます。');
  });
});

describe('what the detail screen lets a user do with a record', () => {
  const delivery: RoleAreas = { client: 'read' };

  it('lets the owner edit only the owner fields of their own record, with the current password, and never delete it', () => {
    const own = recordAccess(userResource, { areas: delivery, userId: 7, id: '7' });
    expect(own.writable).toBe(true);
    expect(own.deletable).toBe(false);
    expect(own.canList).toBe(false);
    expect(['name', 'kana', 'email', 'password'].every((n) => own.editable(field(n)))).toBe(true);
    expect(own.locked.map((f) => f.label)).toEqual(['権限', 'チーム', '有効']);
    expect(own.confirm.map((c) => [c.after, c.field.name, c.field.label])).toEqual([['password', 'current_password', '現在のパスワード']]);
    expect(own.editable(own.confirm[0].field)).toBe(true);
  });

  it('gives nothing on another user\'s record without the area, and everything with it', () => {
    const other = recordAccess(userResource, { areas: delivery, userId: 7, id: '8' });
    expect([other.writable, other.deletable, other.editable(field('name')), other.confirm.length]).toEqual([false, false, false, 0]);
    const admin = recordAccess(userResource, { areas: ALL_WRITE, userId: 1, id: '8' });
    expect([admin.writable, admin.deletable, admin.editable(field('role')), admin.locked.length]).toEqual([true, true, true, 0]);
    const adminSelf = recordAccess(userResource, { areas: ALL_WRITE, userId: 1, id: '1' });
    expect([adminSelf.deletable, adminSelf.confirm.length]).toEqual([false, 1]);
    expect(recordAccess(clientResource, { areas: delivery, userId: 3, id: '3' }).writable).toBe(false);
  });

  it('shows a slip the system made (rental, deposit, a processed order) read-only with where it comes from, even to a writer; a hand slip stays editable', () => {
    const rental = recordAccess(salesResource, { areas: ALL_WRITE, userId: 1, id: '5', record: { sl_id: 5, sl_ag_id: 4, sl_ym: '202605', sl_bt_id: null } });
    expect([rental.writable, rental.deletable, rental.canWrite]).toEqual([false, false, true]);
    expect(rental.madeBy).toBe('月次サーバーレンタル（2026年5月分）で作られた伝票のため、手で変更・削除できません。訂正は値引・返品の伝票を登録してください。');
    const deposit = recordAccess(salesResource, { areas: ALL_WRITE, userId: 1, id: '6', record: { sl_id: 6, sl_ag_id: null, sl_bt_id: 9 } });
    expect([deposit.writable, deposit.deletable]).toEqual([false, false]);
    expect(deposit.madeBy).toMatch(/^ボトルの受け払い（容器保証金）から作られた伝票のため/);
    const fromOrder = recordAccess(salesResource, { areas: ALL_WRITE, userId: 1, id: '8', record: { sl_id: 8, sl_ag_id: null, sl_bt_id: null, sl_od_id: 3 } });
    expect([fromOrder.writable, fromOrder.deletable]).toEqual([false, false]);
    expect(fromOrder.madeBy).toMatch(/^処理済の受注から作られた伝票のため/);
    const hand = recordAccess(salesResource, { areas: ALL_WRITE, userId: 1, id: '7', record: { sl_id: 7, sl_ag_id: null, sl_bt_id: null, sl_od_id: null } });
    expect([hand.writable, hand.deletable, hand.madeBy]).toEqual([true, true, undefined]);
  });

  it('sends the current password with a save only when given', () => {
    expect(fromForm(userResource, { name: '山田', password: 'new-pass-1', current_password: 'old-pass-1' })).toEqual({ name: '山田', password: 'new-pass-1', current_password: 'old-pass-1' });
    expect(fromForm(userResource, { name: '山田', password: '', current_password: '' })).toEqual({ name: '山田' });
  });
});
