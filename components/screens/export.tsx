/**
 * /system/export: the export panels of issue 14 side by side — 「送り状出力」 (Yamato B2 Cloud, ./export-b2) now; 会計連携
 * (Yayoi, ./export-yayoi) joins it as a second panel.
 */
import { useEffect } from 'react';
import { ExportB2Panel } from './export-b2';
import type { ScreenProps } from './registry';

export default function ExportScreen({ match }: ScreenProps) {
  useEffect(() => {
    document.title = match.route.title;
  }, [match.route.title]);
  return (
    <div className="flex flex-col gap-[16px]">
      <ExportB2Panel />
    </div>
  );
}
