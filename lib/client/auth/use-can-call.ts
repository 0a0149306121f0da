/**
 * Whether the session's role may make a call: the call map's gate (lib/protocol/calls.ts) against the role's areas,
 * as the server checks it. Screens ask by the call they are about to make, not by repeating its area.
 */
import { useAtomValue } from 'jotai';
import { can, type RoleAreas } from '../../permissions';
import { CALL_GATES, type CallName } from '../../protocol/calls';
import { areasAtom } from '../state/atoms';

/**
 * Whether `areas` let a call through its gate (no areas yet, or a call the server does not have: no).
 * @example callAllowed({ sales: 'read' }, 'closing_run') // false
 */
export function callAllowed(areas: RoleAreas | null | undefined, name: CallName): boolean {
  const gate = CALL_GATES.get(name);
  if (!gate || !areas) return false;
  return gate.area === null || can(areas, gate.area, gate.level);
}

/**
 * Whether the logged-in user may make the call `name`.
 * @example const canWrite = useCanCall('closing_run');
 */
export const useCanCall = (name: CallName): boolean => callAllowed(useAtomValue(areasAtom), name);
