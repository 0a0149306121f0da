/**
 * The sales report's chart: bars by month (税抜), stacked by tax bucket or by the group's largest rows. Chart.js is
 * imported when the chart first draws (its own chunk), so no other screen loads it; the table beside the chart holds
 * the same figures for screen readers and print.
 */
import { useEffect, useRef, useState } from 'react';
import type { Chart as ChartInstance } from 'chart.js';
import { formatMoney, monthLabel } from '@/lib/format';
import type { ChartSeries } from '@/lib/sales/report';

/** Bar colours: the brand's blue first, then calm tones that stay apart in a stack. */
const PALETTE = ['#1c6682', '#e0a458', '#5b9a74', '#b5617a', '#7a86b8', '#c7b446', '#4fa3a5', '#9a9a9a'];

export function SalesReportChart({ months, series, caption }: { months: readonly string[]; series: readonly ChartSeries[]; caption: string }) {
  const canvas = useRef<HTMLCanvasElement>(null);
  const [drawn, setDrawn] = useState(false);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let chart: ChartInstance | undefined;
    let cancelled = false;
    setDrawn(false);
    import('chart.js').then(({ Chart, BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip }) => {
      if (cancelled || !canvas.current) return;
      Chart.register(BarController, BarElement, CategoryScale, LinearScale, Legend, Tooltip);
      chart = new Chart(canvas.current, {
        type: 'bar',
        data: {
          labels: months.map(monthLabel),
          datasets: series.map((s, i) => ({ label: s.label, data: [...s.values], backgroundColor: PALETTE[i % PALETTE.length], stack: 'net' })),
        },
        options: {
          animation: false,
          responsive: true,
          maintainAspectRatio: false,
          scales: {
            x: { stacked: true },
            y: { stacked: true, ticks: { callback: (value) => formatMoney(Number(value)) } },
          },
          plugins: {
            legend: { position: 'bottom' },
            tooltip: { callbacks: { label: (item) => `${item.dataset.label ?? ''}: ${formatMoney(Number(item.raw))}` } },
          },
        },
      });
      setDrawn(true);
    }).catch(() => {
      if (!cancelled) setFailed(true);
    });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [months, series]);

  return (
    <figure className="flex flex-col gap-[4px] rounded-[6px] border border-line bg-white p-[12px]">
      <div className="relative h-[280px]">
        <canvas ref={canvas} role="img" aria-label={caption} data-drawn={drawn ? 'true' : 'false'} />
      </div>
      <figcaption className="text-[1.2rem] text-muted">{failed ? 'グラフを表示できませんでした（表の数字はそのままお使いいただけます）。' : caption}</figcaption>
    </figure>
  );
}
