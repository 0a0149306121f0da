/** Finds the declaration a screen draws: the registry passes a resource name (or the declaration itself). */
import { resourceNamed } from '@/lib/resources';
import type { ResourceDef } from '@/lib/resources/types';

export type ResourceRef = string | ResourceDef;

export function resolveResource(resource: ResourceRef): ResourceDef {
  if (typeof resource !== 'string') return resource;
  const def = resourceNamed(resource);
  if (!def) throw new Error(`Unknown resource: ${resource}`);
  return def;
}
