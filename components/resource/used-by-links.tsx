/**
 * The records a refused delete names (`usedBy` of the answer), each a link to the list that shows
 * exactly them (the list applies the filters of the link), where the user may read that list.
 */
import { filteredListPathOf } from '@/lib/list/resource-paths';
import { can } from '@/lib/permissions';
import type { UsedBy } from '@/lib/protocol';
import { resourceNamed } from '@/lib/resources';
import { AppLink, useAreas } from './shell-bridge';

export function UsedByLinks({ usedBy }: { usedBy?: readonly UsedBy[] }) {
  const areas = useAreas();
  const links = (usedBy ?? []).flatMap((use) => {
    const def = resourceNamed(use.resource);
    const path = def && can(areas, def.area, 'read') ? filteredListPathOf(def, use.filters) : undefined;
    const field = def?.fields.find((f) => f.name === use.field)?.label ?? use.field;
    return path ? [{ path, text: `${use.label}（${use.count}件）の「${field}」を表示`, key: `${use.resource}.${use.field}` }] : [];
  });
  if (links.length === 0) return null;
  return (
    <ul aria-label="使われている箇所" className="flex w-full flex-wrap gap-x-[16px] gap-y-[4px]">
      {links.map((link) => (
        <li key={link.key}>
          <AppLink to={link.path} className="underline underline-offset-2">
            {link.text}
          </AppLink>
        </li>
      ))}
    </ul>
  );
}
