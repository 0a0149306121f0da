/**
 * 権限 (role): a text label and the level of each work area (`areas`, JSON text area → 'none' |
 * 'read' | 'write'). Users hold the label (`user_role`); the server reads the areas on every call.
 * Edited on the role matrix (/user/role/, components/screens/user/role-matrix.tsx); the rules about
 * 管理, roles in use and renaming are in server/auth/role-policy.ts.
 */
import { AREA_KEYS, LEVELS } from '../permissions';
import type { ResourceDef } from './types';
import { cellText } from './checks';

/** Why an `areas` value is refused, or undefined when it is a JSON object of known areas and levels. */
export function areasProblem(value: unknown): string | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cellText(value));
  } catch {
    return '使える業務の形式が正しくありません。';
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return '使える業務の形式が正しくありません。';
  for (const [area, level] of Object.entries(parsed)) {
    if (!(AREA_KEYS as string[]).includes(area)) return `業務「${area}」はありません。`;
    if (!(LEVELS as unknown[]).includes(level)) return `権限の段階は none・read・write のどれかで指定してください（${area}）。`;
  }
  return undefined;
}

export const roleResource = {
  name: 'role',
  label: '権限',
  table: 'role',
  prefix: 'role_',
  basePath: '/user/role',
  area: 'user_admin',
  storageKey: 'role',
  tabs: [{ key: 'basic', label: '権限' }],
  fields: [
    { name: 'name', label: '権限名', type: 'text', tab: 'basic', required: true, max: 30, unique: true },
    { name: 'areas', label: '使える業務', type: 'textarea', tab: 'basic', max: 2000 },
  ],
  list: {
    columns: [
      { name: 'role_id', label: 'ID' },
      { name: 'role_name', label: '権限名' },
      { name: 'role_areas', label: '使える業務' },
    ],
    sortable: ['role_id', 'role_name', 'created', 'modified'],
    keyword: ['name'],
    defaultSort: { col: 'role_id', odr: 'asc' },
    filters: [],
  },
  titleFields: ['name'],
  check: (values) => {
    const problem = areasProblem(values.areas);
    return problem ? { areas: problem } : undefined;
  },
} as const satisfies ResourceDef;
