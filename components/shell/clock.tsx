'use client';
import { useEffect, useState } from 'react';
import { clockParts } from '@/lib/format';

/** The header clock: HH:MM:SS, YYYY-MM-DD and a 3-letter weekday in Japan time, ticking every second. */
export function Clock() {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout>;
    // Tick just after each second boundary so the seconds never skip or stutter.
    const schedule = () => {
      timer = setTimeout(() => {
        setNow(new Date());
        schedule();
      }, 1000 - (Date.now() % 1000) + 5);
    };
    schedule();
    return () => clearTimeout(timer);
  }, []);
  const { time, date, weekday } = clockParts(now);
  return (
    <time
      aria-label="現在時刻"
      dateTime={now.toISOString()}
      className="tabular flex items-baseline gap-[8px] whitespace-nowrap px-[12px] text-[1.3rem] text-header-ink/90"
    >
      <span className="text-[1.5rem] font-medium tracking-[0.02em] text-header-ink">{time}</span>
      <span>{date}</span>
      <span className="w-[2.6em]">{weekday}</span>
    </time>
  );
}
