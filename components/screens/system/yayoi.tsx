/**
 * /system/yayoi 会計連携（弥生）: the Yayoi journal panel (components/screens/export-yayoi.tsx) on a screen of its own, until
 * /system/export gathers the exports.
 */
import { useEffect } from 'react';
import { ExportYayoiPanel } from '../export-yayoi';
import type { ScreenProps } from '../registry';

export default function YayoiScreen({ match }: ScreenProps) {
  useEffect(() => {
    document.title = match.route.title;
  }, [match.route.title]);
  return (
    <section aria-labelledby="yayoi-title" className="flex flex-col gap-[12px] p-[16px]">
      <h1 id="yayoi-title" className="text-[2rem] font-bold text-ink">{match.route.title}</h1>
      <ExportYayoiPanel />
    </section>
  );
}
