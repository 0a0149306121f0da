/**
 * Home: a greeting, today's date in Japan time, and the screens staff open most, filtered by what
 * the user's role may open.
 */
import { useId } from 'react';
import { Card } from '@/components/ui/card';
import { routeAccess, useSession } from '@/lib/auth';
import { clockParts } from '@/lib/format';
import { Link } from '@/lib/router';
import { matchRoute } from '@/lib/routes';

const QUICK_LINKS: readonly { path: string; label?: string; description: string }[] = [
  { path: '/client/list', description: '顧客を探して、連絡先・配送・請求の情報を確認します。' },
  { path: '/client/new', description: '新しいお客様を登録します。' },
  { path: '/orders/list/untreated', label: '受注一覧', description: 'まだ処理していない受注から順に確認します。' },
  { path: '/orders/new', description: '電話や FAX で受けた注文を入力します。' },
  { path: '/orders/list/search', description: '状態をまたいで受注を探します。' },
  { path: '/hod/list', description: '定期配送の予定とルートシート。' },
  { path: '/contact/list', description: 'お問い合わせ・対応の記録。' },
  { path: '/sales/list', description: '売上伝票の確認と入力。' },
  { path: '/billing/list', description: '締め処理で発行した請求書。' },
];

const WEEKDAYS_JA: Record<string, string> = { Sun: '日', Mon: '月', Tue: '火', Wed: '水', Thu: '木', Fri: '金', Sat: '土' };

function greeting(hour: number): string {
  if (hour < 11) return 'おはようございます';
  if (hour < 18) return 'こんにちは';
  return 'おつかれさまです';
}

function QuickLink({ path, title, description }: { path: string; title: string; description: string }) {
  const id = useId();
  return (
    <li>
      <Link
        to={path}
        aria-describedby={id}
        className="flex h-full flex-col gap-[4px] rounded-[6px] border border-line bg-surface px-[16px] py-[12px] transition-colors hover:border-brand hover:bg-brand-soft/40"
      >
        <span className="text-[1.5rem] font-semibold text-brand-strong">{title}</span>
        <span id={id} className="text-[1.25rem] leading-[1.6] text-ink-soft">
          {description}
        </span>
      </Link>
    </li>
  );
}

export default function HomeScreen() {
  const { userName, role, areas } = useSession();
  const now = new Date();
  const { date, weekday, time } = clockParts(now);
  const [y, m, d] = date.split('-').map(Number);
  const hour = Number(time.slice(0, 2));
  const links = QUICK_LINKS.flatMap((link) => {
    const match = matchRoute(link.path);
    if (!match || routeAccess(match, { role, areas }) !== 'ok') return [];
    return [{ ...link, title: link.label ?? match.route.title }];
  });

  return (
    <div className="flex max-w-[1080px] flex-col gap-[16px] p-[16px]">
      <div className="flex flex-wrap items-end justify-between gap-[8px]">
        <h1 className="text-[2rem] font-bold">
          {greeting(hour)}、{userName || 'ゲスト'}さん
        </h1>
        <p className="text-[1.4rem] text-ink-soft">
          本日は
          <time dateTime={date} className="tabular mx-[4px] font-semibold text-ink">
            {y}年{m}月{d}日（{WEEKDAYS_JA[weekday]}）
          </time>
          です
        </p>
      </div>
      <Card title="よく使う画面">
        {links.length > 0 ? (
          <ul className="grid grid-cols-[repeat(auto-fill,minmax(220px,1fr))] gap-[12px]">
            {links.map((link) => (
              <QuickLink key={link.path} path={link.path} title={link.title} description={link.description} />
            ))}
          </ul>
        ) : (
          <p className="text-ink-soft">左のメニューから画面を選んでください。</p>
        )}
      </Card>
      <p className="text-[1.25rem] text-muted">
        左のメニューで日々の業務画面を、上部の「入力」「売上」「システム」から取込・締め・設定の画面を開けます。
      </p>
    </div>
  );
}
