/**
 * The frame of a working screen that is not a resource list or form (締め処理, 定期配送の受注作成, 売上レポート, 取込 …):
 * the route's title as the page's heading and the document's title, a line on what the screen does, and — for screens
 * that ask the server for a period or a month first — the one query form (its fields in a row, 表示 submits, the
 * browser's own validation off: the screens name the problem themselves).
 */
import clsx from 'clsx';
import { useEffect, type FormEvent, type ReactNode } from 'react';

export function WorkScreen({ id, title, intro, className = '', children }: {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  /** What the screen does, under the heading. */
  intro?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = title;
  }, [title]);
  return (
    <section aria-labelledby={id} className={clsx('flex flex-col gap-[12px] p-[16px]', className)}>
      <div>
        <h1 id={id} className="text-[2rem] font-bold text-ink">{title}</h1>
        {intro !== undefined && <p className="text-[1.3rem] text-ink-soft">{intro}</p>}
      </div>
      {children}
    </section>
  );
}

/** The query form of a working screen: `onSubmit` runs on 表示 (Enter too), the default submit prevented. */
export function QueryForm({ onSubmit, label, children }: { onSubmit: () => void; label?: string; children: ReactNode }) {
  return (
    <form
      noValidate
      aria-label={label}
      className="flex flex-wrap items-end gap-[12px]"
      onSubmit={(e: FormEvent<HTMLFormElement>) => {
        e.preventDefault();
        onSubmit();
      }}
    >
      {children}
    </form>
  );
}
