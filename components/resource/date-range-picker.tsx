/**
 * The one way a screen asks for a period: two typed days (`DayInput`, one Tab stop each) 〜 between them, and a
 * menu of presets (今日, 今週, 先月 …) that fills both. The menu button is for the mouse like the calendar
 * button (no Tab stop, so Tab goes from the start to the end day and on); from either day Alt+↓ opens it,
 * ↑↓ choose, Enter applies, Esc closes. The rules (`periodProblem`: an end before the start, a period too long)
 * are shown under the days as the screen's own check and the server say them.
 */
import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { todayJst } from '@/lib/format';
import { FILTER_PRESETS, PERIOD_PRESETS, periodProblem, presetPeriod, type Period, type PeriodPresetName, type PeriodRules } from '@/lib/period';
import { DayInput } from './day-input';
import { labelClass } from './styles';

const OPEN_KEYS = 'Alt+ArrowDown';

export interface DateRangePickerProps {
  /** What the period is, e.g. 期間 or 登録日: the group's name and visible label. */
  label: string;
  value: Period;
  onChange: (period: Period) => void;
  /** The accessible names of the two days (default 「{label}（開始）」「{label}（終了）」). */
  fromLabel?: string;
  toLabel?: string;
  presets?: readonly PeriodPresetName[];
  rules?: PeriodRules;
  /** Today in Japan (tests fix it). */
  today?: string;
}

export function DateRangePicker({ label, value, onChange, fromLabel = `${label}（開始）`, toLabel = `${label}（終了）`, presets = FILTER_PRESETS, rules, today = todayJst() }: DateRangePickerProps) {
  const [menuOpen, setMenuOpen] = useState(false);
  const returnFocus = useRef<HTMLElement | null>(null);
  const menu = useRef<HTMLUListElement>(null);
  const problemId = useId();
  const menuId = useId();
  const problem = periodProblem(value, rules);

  const items = () => Array.from(menu.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? []);
  const open = (from: HTMLElement | null) => {
    returnFocus.current = from;
    setMenuOpen(true);
    // The menu is drawn on this render; its first entry takes the focus once it is there.
    requestAnimationFrame(() => items()[0]?.focus());
  };
  const close = (refocus: boolean) => {
    setMenuOpen(false);
    if (refocus) returnFocus.current?.focus();
  };
  const choose = (name: PeriodPresetName) => {
    onChange(presetPeriod(name, today));
    close(true);
  };

  const onDayKeys = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.altKey && e.key === 'ArrowDown' && !menuOpen) {
      e.preventDefault();
      open(e.target instanceof HTMLElement ? e.target : null);
    }
  };
  const onMenuKeys = (e: KeyboardEvent<HTMLUListElement>) => {
    const entries = items();
    const at = entries.indexOf(document.activeElement as HTMLButtonElement);
    const move = (to: number) => {
      e.preventDefault();
      entries[(to + entries.length) % entries.length]?.focus();
    };
    if (e.key === 'ArrowDown') move(at + 1);
    else if (e.key === 'ArrowUp') move(at - 1);
    else if (e.key === 'Home') move(0);
    else if (e.key === 'End') move(entries.length - 1);
    else if (e.key === 'Escape') {
      e.preventDefault();
      e.stopPropagation();
      close(true);
    } else if (e.key === 'Tab') close(false);
  };

  return (
    <div role="group" aria-label={label} className="flex flex-col gap-[3px]">
      <span className={labelClass} aria-hidden="true">{label}</span>
      <div className="relative flex items-center gap-[4px]" onKeyDown={onDayKeys}>
        <DayInput label={fromLabel} value={value.from} max={value.to || undefined} onChange={(from) => onChange({ ...value, from })} invalid={problem?.field === 'from'} describedBy={problem?.field === 'from' ? problemId : undefined} keyShortcuts={OPEN_KEYS} />
        <span aria-hidden="true" className="text-muted">〜</span>
        <DayInput label={toLabel} value={value.to} min={value.from || undefined} onChange={(to) => onChange({ ...value, to })} invalid={problem?.field === 'to'} describedBy={problem?.field === 'to' ? problemId : undefined} keyShortcuts={OPEN_KEYS} />
        <button
          type="button"
          tabIndex={-1}
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          aria-controls={menuOpen ? menuId : undefined}
          aria-label={`${label}を今日・今週などから選ぶ（Alt+↓）`}
          title="今日・今週・今月などから選ぶ（Alt+↓）"
          onClick={(e) => (menuOpen ? close(false) : open(e.currentTarget))}
          className="flex h-[32px] items-center gap-[2px] rounded-[4px] border border-line-strong bg-surface px-[6px] text-[1.3rem] text-ink-soft hover:border-brand hover:text-brand"
        >
          期間<span aria-hidden="true">▾</span>
        </button>
        {menuOpen && (
          <ul
            ref={menu}
            id={menuId}
            role="menu"
            aria-label={`${label}の候補`}
            onKeyDown={onMenuKeys}
            onBlur={(e) => {
              if (!e.currentTarget.contains(e.relatedTarget)) setMenuOpen(false);
            }}
            className="absolute left-0 top-full z-[5] mt-[2px] min-w-[260px] overflow-hidden rounded-[6px] border border-line bg-surface py-[4px] shadow-[0_8px_24px_rgba(16,40,56,0.18)]"
          >
            {presets.map((name) => {
              const period = presetPeriod(name, today);
              const days = period.from === period.to ? period.from : `${period.from}〜${period.to}`;
              return (
                <li key={name} role="none">
                  <button
                    type="button"
                    role="menuitem"
                    tabIndex={-1}
                    aria-label={`${PERIOD_PRESETS[name].label}（${days}）`}
                    onClick={() => choose(name)}
                    className="flex w-full items-baseline justify-between gap-[12px] px-[12px] py-[5px] text-left text-[1.4rem] text-ink hover:bg-brand-soft focus:bg-brand-soft focus:outline-none"
                  >
                    <span>{PERIOD_PRESETS[name].label}</span>
                    <span className="text-[1.2rem] text-muted tabular-nums">{days}</span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
      </div>
      {/* Polite, not an alert: a list says its own alert about a range it cannot send, naming the filter. */}
      <p id={problemId} aria-live="polite" className="text-[1.2rem] text-danger empty:hidden">
        {problem?.message}
      </p>
    </div>
  );
}
