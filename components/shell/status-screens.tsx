import type { ReactNode } from 'react';
import { Card } from '@/components/ui/card';
import { buttonClass } from '@/components/ui/button';
import { Link } from '@/lib/client/router';
import { isAdminOnlyArea } from '@/lib/permissions';
import type { RouteDef } from '@/lib/routes';

/** A screen that explains why the requested one is not shown, with a way home (and back, when given). */
function StatusScreen({ title, children, primary, back }: { title: string; children: ReactNode; primary?: boolean; back?: { to: string; label: string } }) {
  return (
    <div className="flex max-w-[720px] flex-col gap-[16px] p-[16px]">
      <h1 className="text-[2rem] font-bold">{title}</h1>
      <Card>
        <p className="leading-[1.8]">{children}</p>
        <p className="mt-[14px] flex flex-wrap gap-[8px]">
          {back && (
            <Link to={back.to} className={buttonClass('primary')}>
              {back.label}
            </Link>
          )}
          <Link to="/" className={buttonClass(primary && !back ? 'primary' : 'secondary')}>
            ホームへ戻る
          </Link>
        </p>
      </Card>
    </div>
  );
}

/** An unknown hash path. */
export function NotFound() {
  return (
    <StatusScreen title="ページが見つかりません" primary>
      お探しの画面は見つかりませんでした。アドレスが正しいか確認するか、メニューから画面を選んでください。
    </StatusScreen>
  );
}

/**
 * A detail route whose record does not exist (deleted, or a wrong address): every record screen shows
 * this instead of an empty form.
 */
export function RecordNotFound({ label, back }: { label: string; back?: { to: string; label: string } }) {
  return (
    <StatusScreen title={`${label}が見つかりません`} back={back}>
      指定された{label}は見つかりませんでした。削除されたか、アドレスが正しくない可能性があります。
    </StatusScreen>
  );
}

/** A route the user's role may not open (the server refuses its calls as well). */
export function Forbidden({ route }: { route: RouteDef }) {
  return (
    <StatusScreen title="この画面を表示する権限がありません">
      「{route.title}」を使うには、{isAdminOnlyArea(route.area) ? '管理者の権限' : 'この業務の権限'}が必要です。必要な場合は管理者に権限の変更を依頼してください。
    </StatusScreen>
  );
}
