/**
 * /system/export 送り状出力・会計連携: issue 14's exports as two tabs — 「送り状出力」 (Yamato B2 Cloud, ./export-b2) and
 * 「会計連携（弥生）」 (the Yayoi journal, ./export-yayoi). `?tab=yayoi` (the menu's 会計連携 entry) opens the second; otherwise
 * the tab last used. The second shows only to a role that reads sales too (`SALES_DATA`, as its menu entry).
 */
import { useState } from 'react';
import { useRoute } from '@/lib/client/router';
import { readStored, writeStored } from '@/lib/client/state/storage';
import { can } from '@/lib/permissions';
import { SALES_DATA } from '@/lib/routes';
import { listKey } from '@/lib/storage-keys';
import { useAreas } from '@/components/resource/shell-bridge';
import { Tabs } from '@/components/ui/tabs';
import { ExportB2Panel } from './export-b2';
import { ExportYayoiPanel } from './export-yayoi';
import { WorkScreen } from '../work-screen';
import type { ScreenProps } from '@/components/screens/screen-props';

const TAB_KEY = listKey('export', 'tabIndex');
const TABS = ['b2', 'yayoi'] as const;

export default function ExportScreen({ match }: ScreenProps) {
  const { query } = useRoute();
  const yayoi = can(useAreas(), SALES_DATA.area, SALES_DATA.level);
  const asked = TABS.indexOf(query.get('tab') as (typeof TABS)[number]);
  const [tab, setTab] = useState(() => (asked >= 0 ? asked : readStored<unknown>(TAB_KEY, 0) === 1 ? 1 : 0));
  // A menu entry followed while the screen is open (`?tab=` changed, the screen kept) selects its tab.
  const [seen, setSeen] = useState(asked);
  if (asked !== seen) {
    setSeen(asked);
    if (asked >= 0) setTab(asked);
  }
  return (
    <WorkScreen id="export-title" title={match.route.title}>
      <Tabs
        label="出力"
        index={tab}
        onIndexChange={(index) => { setTab(index); writeStored(TAB_KEY, index); }}
        keepMounted={false}
        tabs={[
          { key: 'b2', label: '送り状出力（ヤマト B2）', content: <ExportB2Panel /> },
          ...(yayoi ? [{ key: 'yayoi', label: '会計連携（弥生）', content: <ExportYayoiPanel /> }] : []),
        ]}
      />
    </WorkScreen>
  );
}
