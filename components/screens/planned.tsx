/**
 * A route whose screen is described in the route table (`screen.note`): the title, what the screen
 * holds, and the way back to where it belongs.
 */
import { Card } from '@/components/ui/card';
import { AREAS } from '@/lib/permissions';
import { Link } from '@/lib/client/router';
import { fillPath, ROUTES } from '@/lib/routes';
import type { ScreenProps } from './registry';

const PARAM_LABELS: Record<string, string> = {
  con: '対応履歴 ID', rep: '報告 ID', agr: '契約 ID', odr: '受注 ID', hod: '配送便 ID', ite: '商品 ID',
  ser: 'サーバー ID', bot: 'ボトル ID', war: '倉庫 ID', sal: '売上伝票 ID', pay: '入金伝票 ID', bli: '請求 ID',
  tax: '税率 ID', mt: 'テンプレート ID',
};

export default function PlannedScreen({ match }: ScreenProps) {
  const { route, params } = match;
  const note = route.screen.kind === 'planned' ? route.screen.note : '';
  const parent = route.parent ? ROUTES.find((r) => r.path === route.parent) : undefined;
  const entries = Object.entries(params);
  const idLabel = route.path.startsWith('/user/') ? 'ユーザー ID' : route.path.startsWith('/client/') ? '顧客 ID' : 'ID';
  return (
    <div className="flex max-w-[880px] flex-col gap-[16px] p-[16px]">
      <h1 className="text-[2rem] font-bold">{route.title}</h1>
      <Card title="この画面について">
        <p className="leading-[1.9]">{note}</p>
        <dl className="mt-[14px] grid grid-cols-[max-content_1fr] gap-x-[16px] gap-y-[6px] text-[1.3rem]">
          {route.area && (
            <>
              <dt className="text-muted">業務領域</dt>
              <dd>{AREAS[route.area]}</dd>
            </>
          )}
          <dt className="text-muted">必要な権限</dt>
          <dd>{route.adminOnly ? '管理者' : route.level === 'write' ? '登録・更新' : '閲覧'}</dd>
          {entries.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="text-muted">{name === 'id' ? idLabel : (PARAM_LABELS[name] ?? name)}</dt>
              <dd className="tabular">{value}</dd>
            </div>
          ))}
        </dl>
      </Card>
      {parent && (
        <p>
          <Link to={fillPath(parent.path, params)} className="text-brand underline-offset-2 hover:underline">
            ‹ {parent.title}へ戻る
          </Link>
        </p>
      )}
    </div>
  );
}
