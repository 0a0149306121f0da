import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { DateRangePicker } from '@/components/resource/date-range-picker';
import { COMING_PRESETS, HOD_PERIOD, type Period, type PeriodRules } from '@/lib/period';
import { MESSAGES } from '@/lib/protocol';

const TODAY = '2026-11-25';

/** The picker with its value held as a screen holds it; `seen` records every period it reported. */
function Harness({ initial, rules, seen }: { initial: Period; rules?: PeriodRules; seen: Period[] }) {
  const [value, setValue] = useState(initial);
  return (
    <>
      <DateRangePicker label="期間" fromLabel="開始日" toLabel="終了日" value={value} rules={rules} presets={COMING_PRESETS} today={TODAY} onChange={(p) => { seen.push(p); setValue(p); }} />
      <button type="button">次の項目</button>
    </>
  );
}

const flushFrame = () => act(() => new Promise<void>((done) => requestAnimationFrame(() => done())));

describe('DateRangePicker', () => {
  it('is a named group of two labelled days; a typed short day applies on Tab, which goes from start to end to the next control', async () => {
    const user = userEvent.setup();
    const seen: Period[] = [];
    render(<Harness initial={{ from: '', to: '' }} seen={seen} />);
    expect(screen.getByRole('group', { name: '期間' })).toBeInTheDocument();
    const from = screen.getByRole('textbox', { name: '開始日' });
    const to = screen.getByRole('textbox', { name: '終了日' });
    await user.click(from);
    await user.keyboard('1101');
    await user.tab();
    expect(from).toHaveValue('2026-11-01');
    expect(to).toHaveFocus();
    await user.keyboard('20261130');
    await user.tab();
    expect(screen.getByRole('button', { name: '次の項目' })).toHaveFocus();
    expect(seen.at(-1)).toEqual({ from: '2026-11-01', to: '2026-11-30' });
    expect(screen.getByRole('textbox', { name: '終了日' })).not.toHaveAttribute('aria-invalid');
  });

  it('says in Japanese when the end is before the start, marking the end day', async () => {
    const seen: Period[] = [];
    render(<Harness initial={{ from: '2026-11-10', to: '2026-11-01' }} seen={seen} />);
    const to = screen.getByRole('textbox', { name: '終了日' });
    expect(to).toHaveAttribute('aria-invalid', 'true');
    expect(to).toHaveAccessibleDescription(MESSAGES.hodToBeforeFrom);
    expect(screen.getByText(MESSAGES.hodToBeforeFrom)).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByRole('textbox', { name: '開始日' })).not.toHaveAttribute('aria-invalid');
  });

  it('a regular-delivery period says when it is longer than 93 days', () => {
    render(<Harness initial={{ from: '2026-01-01', to: '2026-12-31' }} rules={HOD_PERIOD} seen={[]} />);
    expect(screen.getByRole('textbox', { name: '終了日' })).toHaveAccessibleDescription(MESSAGES.hodRangeTooLong);
  });

  it('presets from the keyboard: Alt+↓ opens the menu on its first entry, ↓ and Enter choose, the focus returns to the day', async () => {
    const user = userEvent.setup();
    const seen: Period[] = [];
    render(<Harness initial={{ from: TODAY, to: TODAY }} seen={seen} />);
    const from = screen.getByRole('textbox', { name: '開始日' });
    expect(from).toHaveAttribute('aria-keyshortcuts', 'Alt+ArrowDown');
    await user.click(from);
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await flushFrame();
    const menu = screen.getByRole('menu', { name: '期間の候補' });
    expect(screen.getAllByRole('menuitem').map((item) => item.textContent)).toEqual([
      '今日2026-11-25', '明日2026-11-26', '今週2026-11-23〜2026-11-29', '来週2026-11-30〜2026-12-06', '今月2026-11-01〜2026-11-30', '来月2026-12-01〜2026-12-31',
    ]);
    expect(screen.getByRole('menuitem', { name: '今日（2026-11-25）' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(screen.getByRole('menuitem', { name: '来週（2026-11-30〜2026-12-06）' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(menu).not.toBeInTheDocument();
    expect(seen.at(-1)).toEqual({ from: '2026-11-30', to: '2026-12-06' });
    expect(from).toHaveValue('2026-11-30');
    expect(screen.getByRole('textbox', { name: '終了日' })).toHaveValue('2026-12-06');
    expect(from).toHaveFocus();
  });

  it('Esc closes the menu without a change; ↑ wraps to the last entry', async () => {
    const user = userEvent.setup();
    const seen: Period[] = [];
    render(<Harness initial={{ from: TODAY, to: TODAY }} seen={seen} />);
    const to = screen.getByRole('textbox', { name: '終了日' });
    await user.click(to);
    await user.keyboard('{Alt>}{ArrowDown}{/Alt}');
    await flushFrame();
    await user.keyboard('{ArrowUp}');
    expect(screen.getByRole('menuitem', { name: /^来月/ })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).toBeNull();
    expect(to).toHaveFocus();
    expect(seen).toEqual([]);
  });

  it('the mouse: the 期間 button (no Tab stop) opens the menu and a click on an entry fills both days', async () => {
    const user = userEvent.setup();
    const seen: Period[] = [];
    render(<Harness initial={{ from: '', to: '' }} seen={seen} />);
    const button = screen.getByRole('button', { name: '期間を今日・今週などから選ぶ（Alt+↓）' });
    expect(button).toHaveAttribute('tabindex', '-1');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    await user.click(screen.getByRole('menuitem', { name: /^今月/ }));
    expect(seen).toEqual([{ from: '2026-11-01', to: '2026-11-30' }]);
    expect(screen.queryByRole('menu')).toBeNull();
  });
});
