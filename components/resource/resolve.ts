/** Finds the declaration a screen draws: the registry passes a resource name (or the declaration itself). */
import { RESOURCES } from '@/lib/resources';
import type { ResourceDef } from '@/lib/resources/types';

export type ResourceRef = string | ResourceDef;

export function resolveResource(resource: ResourceRef): ResourceDef {
  if (typeof resource !== 'string') return resource;
  const def = (RESOURCES as Record<string, ResourceDef>)[resource];
  if (!def) throw new Error(`Unknown resource: ${resource}`);
  return def;
}
