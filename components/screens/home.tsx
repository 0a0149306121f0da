/**
 * Home: a greeting, today's date in Japan time, what needs doing today (counts of filtered lists, each a
 * link to the list it counts: lib/home/work-items.ts) and the screens staff open most, filtered by what
 * the user's role may open; above them the お知らせ for the user's role today (`notice_home`, lib/resources/notice.ts).
 */
import { useId } from 'react';
import { Card } from '@/components/ui/card';
import { menuGuide, routeAccess, useSession, workMenus } from '@/lib/client/auth';
import { clockParts, todayJst } from '@/lib/format';
import { workItemCount, workItemPath, workItems, type WorkItem } from '@/lib/home/work-items';
import { countMoreOf, countOf } from '@/lib/list/list-state';
import { resourceCall } from '@/lib/protocol/calls';
import { Link } from '@/lib/client/router';
import { matchRoute } from '@/lib/routes';
import { useCall } from '@/lib/client/data/use-call';

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

/** Today's お知らせ for the user's role (nothing when there is none or it cannot be read). */
function Notices() {
  const { data } = useCall('notice_home', {}, { revalidateOnFocus: false });
  if (!data?.length) return null;
  return (
    <Card title="お知らせ">
      <ul aria-label="お知らせ" className="flex flex-col gap-[10px]">
        {data.map((notice) => (
          <li key={notice.id}>
            <p className="font-semibold">{notice.title}</p>
            {notice.body && <p className="whitespace-pre-wrap text-[1.3rem]">{notice.body}</p>}
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** One count of today's work, a link to the rows it counts. */
function WorkCount({ item, today }: { item: WorkItem; today: string }) {
  const params = workItemCount(item, today);
  const { data, error } = useCall(resourceCall(item.def, 'cnt'), params ?? null, { revalidateOnFocus: false });
  const count = countOf(data);
  const hintId = useId();
  return (
    <li>
      <Link
        to={workItemPath(item)}
        aria-describedby={hintId}
        className="flex h-full flex-col gap-[2px] rounded-[6px] border border-line bg-surface px-[14px] py-[10px] transition-colors hover:border-brand hover:bg-brand-soft/40"
      >
        <span className="text-[1.4rem] font-semibold text-ink-soft">{item.label}</span>
        <span className="tabular text-[2.6rem] font-bold leading-[1.2] text-brand-strong" data-testid={`work-${item.key}`}>
          {count === undefined ? (error ? '—' : '…') : count.toLocaleString('ja-JP')}
          <span className="ml-[4px] text-[1.4rem] font-medium text-ink-soft">{item.unit}{countMoreOf(data) ? '以上' : ''}</span>
        </span>
        <span id={hintId} className="text-[1.2rem] leading-[1.5] text-muted">{item.hint}</span>
      </Link>
    </li>
  );
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
  const { userName, role, userId, areas } = useSession();
  const now = new Date();
  const { date, weekday, time } = clockParts(now);
  const [y, m, d] = date.split('-').map(Number);
  const hour = Number(time.slice(0, 2));
  const today = todayJst(now);
  const work = workItems(today).filter((item) => {
    const match = matchRoute(workItemPath(item));
    return match !== undefined && routeAccess(match, { role, areas }) === 'ok';
  });
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
      <Notices />
      {work.length > 0 && (
        <Card title="今日の仕事">
          <ul aria-label="今日の仕事" className="grid grid-cols-[repeat(auto-fill,minmax(180px,1fr))] gap-[10px]">
            {work.map((item) => <WorkCount key={item.key} item={item} today={today} />)}
          </ul>
        </Card>
      )}
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
      <p className="text-[1.25rem] text-muted" data-testid="menu-guide">{menuGuide(workMenus({ role, userId, areas }))}</p>
    </div>
  );
}
