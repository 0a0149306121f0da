import { act, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Clock } from '@/components/shell/clock';

describe('header clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // 2026-11-22 23:59:58 in Japan (14:59:58 UTC), a Sunday.
    vi.setSystemTime(new Date('2026-11-22T14:59:58.000Z'));
  });
  afterEach(() => vi.useRealTimers());

  it('shows HH:MM:SS, YYYY-MM-DD and a 3-letter weekday in Japan time', () => {
    render(<Clock />);
    const clock = screen.getByLabelText('現在時刻');
    expect(clock).toHaveTextContent('23:59:58');
    expect(clock).toHaveTextContent('2026-11-22');
    expect(clock).toHaveTextContent('Sun');
  });

  it('updates every second, rolling the date and weekday over at midnight', () => {
    render(<Clock />);
    const clock = screen.getByLabelText('現在時刻');
    act(() => {
      vi.advanceTimersByTime(1005);
    });
    expect(clock).toHaveTextContent('23:59:59');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(clock).toHaveTextContent('00:00:00');
    expect(clock).toHaveTextContent('2026-11-23');
    expect(clock).toHaveTextContent('Mon');
  });
});
