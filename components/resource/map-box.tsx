/**
 * The small map box of a record with an address and `lat`/`lng` fields. The Google Maps code sits
 * in its own chunk (`map-box-google.tsx`), loaded only when a key is configured; without a key the
 * box says so and the rest of the form works.
 */
import clsx from 'clsx';
import { lazy, Suspense } from 'react';
import { getConfig } from '@/lib/client/api/config';
import type { MapBoxProps } from './map-box-props';

const GoogleMapBox = lazy(() => import('./map-box-google'));

/** Staff read this: what is missing and who can add it, never where a file lives (the README tells the administrator). */
export const MAP_KEY_NOTICE = '地図を表示するには Google Maps API キーの設定が必要です。管理者に設定を依頼してください。住所の入力と保存はこのまま行えます。';

const boxClass = 'flex h-[200px] w-[300px] max-w-full items-center justify-center rounded-[4px] border border-line bg-subtle p-[12px] text-[13px] text-ink-soft';

export function MapBox(props: MapBoxProps) {
  const apiKey = getConfig().mapsApiKey;
  return (
    <section aria-label="地図" className="flex flex-col gap-[6px]">
      <h3 className="text-[13px] font-medium text-ink-soft">地図</h3>
      {apiKey ? (
        <Suspense fallback={<div className={boxClass}>地図を読み込み中…</div>}>
          <GoogleMapBox apiKey={apiKey} {...props} />
        </Suspense>
      ) : (
        <p role="note" className={clsx(boxClass, 'text-left leading-[1.6]')}>
          {MAP_KEY_NOTICE}
        </p>
      )}
    </section>
  );
}
