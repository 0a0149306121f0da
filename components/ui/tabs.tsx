import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabItem {
  /** Stable key (also used in element ids). */
  key: string;
  label: ReactNode;
  content: ReactNode;
  /** Marks a tab that holds a field with an error (shown as a dot, announced in the name). */
  invalid?: boolean;
}

export interface TabsProps {
  /** Accessible name of the tab list, e.g. 「顧客情報」. */
  label: string;
  tabs: readonly TabItem[];
  /** Controlled: the selected tab (lists persist it under `listKey(list, 'tabIndex')`). */
  index: number;
  onIndexChange: (index: number) => void;
  /**
   * Keep every panel mounted and hide the others (default true), so form fields on hidden tabs keep
   * their values and validation. False renders only the selected panel.
   */
  keepMounted?: boolean;
  className?: string;
}

/**
 * Tabs with the WAI-ARIA roles: `tablist` / `tab` / `tabpanel`; ←/→ (and Home/End) move between
 * tabs and select them, Tab moves into the panel.
 */
export function Tabs({ label, tabs, index, onIndexChange, keepMounted = true, className }: TabsProps) {
  const base = useId();
  const refs = useRef<(HTMLButtonElement | null)[]>([]);
  const selected = Math.min(Math.max(0, index), Math.max(0, tabs.length - 1));

  const move = (to: number) => {
    const next = (to + tabs.length) % tabs.length;
    onIndexChange(next);
    refs.current[next]?.focus();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const keys: Record<string, () => void> = {
      ArrowRight: () => move(selected + 1),
      ArrowLeft: () => move(selected - 1),
      Home: () => move(0),
      End: () => move(tabs.length - 1),
    };
    const action = keys[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };

  return (
    <div className={className}>
      <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className="flex flex-wrap gap-[2px] border-b border-line">
        {tabs.map((tab, i) => {
          const active = i === selected;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                refs.current[i] = el;
              }}
              id={`${base}-tab-${tab.key}`}
              type="button"
              role="tab"
              aria-selected={active}
              aria-controls={`${base}-panel-${tab.key}`}
              tabIndex={active ? 0 : -1}
              onClick={() => onIndexChange(i)}
              className={[
                '-mb-px flex h-[36px] items-center gap-[6px] rounded-t-[4px] border px-[14px] text-[1.4rem]',
                active
                  ? 'border-line border-b-surface bg-surface font-semibold text-brand'
                  : 'border-transparent text-ink-soft hover:bg-subtle hover:text-ink',
              ].join(' ')}
            >
              {tab.label}
              {tab.invalid && (
                <>
                  <span aria-hidden="true" className="inline-block size-[7px] rounded-full bg-danger" />
                  <span className="visually-hidden">（入力エラーあり）</span>
                </>
              )}
            </button>
          );
        })}
      </div>
      {tabs.map((tab, i) =>
        keepMounted || i === selected ? (
          <div
            key={tab.key}
            id={`${base}-panel-${tab.key}`}
            role="tabpanel"
            aria-labelledby={`${base}-tab-${tab.key}`}
            hidden={i !== selected}
            tabIndex={0}
            className="pt-[14px] focus-visible:outline-offset-[-2px]"
          >
            {tab.content}
          </div>
        ) : null,
      )}
    </div>
  );
}
