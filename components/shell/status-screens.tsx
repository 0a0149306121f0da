import { Card } from '@/components/ui/card';
import { buttonClass } from '@/components/ui/button';
import { Link } from '@/lib/router';
import type { RouteDef } from '@/lib/routes';

/** An unknown hash path. */
export function NotFound() {
  return (
    <div className="flex max-w-[720px] flex-col gap-[16px] p-[16px]">
      <h1 className="text-[2rem] font-bold">ページが見つかりません</h1>
      <Card>
        <p className="leading-[1.8]">
          お探しの画面は見つかりませんでした。アドレスが正しいか確認するか、メニューから画面を選んでください。
        </p>
        <p className="mt-[14px]">
          <Link to="/" className={buttonClass('primary')}>
            ホームへ戻る
          </Link>
        </p>
      </Card>
    </div>
  );
}

/** A route the user's role may not open (the server refuses its calls as well). */
export function Forbidden({ route }: { route: RouteDef }) {
  return (
    <div className="flex max-w-[720px] flex-col gap-[16px] p-[16px]">
      <h1 className="text-[2rem] font-bold">この画面を表示する権限がありません</h1>
      <Card>
        <p className="leading-[1.8]">
          「{route.title}」を使うには、{route.adminOnly ? '管理者の権限' : 'この業務の権限'}が必要です。必要な場合は管理者に権限の変更を依頼してください。
        </p>
        <p className="mt-[14px]">
          <Link to="/" className={buttonClass('secondary')}>
            ホームへ戻る
          </Link>
        </p>
      </Card>
    </div>
  );
}
