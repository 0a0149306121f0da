/**
 * The resource policies live in their areas (server/<area>/<name>-policy.ts) and are registered from
 * server/areas.ts: every resource that had a policy before the move still has it, and no other.
 */
import { describe, expect, it } from 'vitest';
import { RESOURCES } from '@/lib/resources';
import { registerServerAreas } from '@/server/areas';
import { policyNames, policyOf } from '@/server/resources/registry';

const WITH_POLICY = [
  'user', 'client', 'role', 'mailtemplate', 'master_option', 'item', 'souko', 'server', 'bottle', 'tax',
  'hodpause', 'hodreport', 'order', 'log', 'sales', 'payment', 'billing',
];

describe('area policies', () => {
  it('are the 17 of the resources that had one, each a declared resource', () => {
    registerServerAreas();
    expect(policyNames().sort()).toEqual([...WITH_POLICY].sort());
    const declared = new Map(Object.entries(RESOURCES));
    for (const name of policyNames()) expect(declared.get(name)?.name).toBe(name);
  });

  it('registering again changes nothing; a resource without a policy has the generic rules only', () => {
    registerServerAreas();
    expect(policyNames()).toHaveLength(WITH_POLICY.length);
    expect(policyOf('contact')).toBeUndefined();
    expect(policyOf('sales')).toHaveProperty('beforeSave');
  });
});
