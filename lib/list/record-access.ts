/**
 * What the logged-in user may do with one record on the detail screen, from the resource
 * declaration and the role's loaded areas — the same rules the server enforces: the operations the
 * resource allows (`ops`); the area's write level edits everything; the owner of their own record (`def.owner`, a user's profile) edits only
 * the owner fields and, to change a confirmed secret, gives its current value; a record the system made (`def.madeBy`: a
 * rental or deposit slip) is read-only, saying why.
 */
import { can, type RoleAreas } from '../permissions';
import { allows, currentField, type FieldDef, type ResourceDef } from '../resources/types';

export interface RecordAccess {
  /** The role has the area's write level (whatever the resource's operations allow). */
  canWrite: boolean;
  /** The form can be saved. */
  writable: boolean;
  /** The record can be deleted (never one's own). */
  deletable: boolean;
  /** The resource's list opens for this user (the 「一覧へ戻る」 link). */
  canList: boolean;
  /** The record is the user's own (their profile). */
  own: boolean;
  /** Whether one field can be edited. */
  editable: (field: FieldDef) => boolean;
  /** Fields shown but locked for this user while the rest of the form is editable. */
  locked: FieldDef[];
  /** Extra inputs of a save (`current_password`), each shown after the field it confirms. */
  confirm: { after: string; field: FieldDef }[];
  /** Why the record is not changed by hand (`def.madeBy` of the stored record): it is shown read-only with this. */
  madeBy: string | undefined;
}

/**
 * @example recordAccess(userResource, { areas: { client: 'read' }, userId: 7, id: '7' }).editable(roleField) // false
 */
export function recordAccess(def: ResourceDef, { areas, userId, id, record }: { areas: RoleAreas | null; userId: number | null; id: string | undefined; record?: Readonly<Record<string, unknown>> }): RecordAccess {
  const canWrite = can(areas, def.area, 'write');
  const own = Boolean(def.owner) && id !== undefined && userId !== null && id === String(userId);
  const confirm = own
    ? (def.owner?.confirm ?? []).flatMap((name) => {
        const field = def.fields.find((f) => f.name === name);
        return field ? [{ after: name, field: currentField(field) }] : [];
      })
    : [];
  const ownerFields = new Set(own ? [...(def.owner?.fields ?? []), ...confirm.map((c) => c.field.name)] : []);
  const editable = (field: FieldDef) => canWrite || ownerFields.has(field.name);
  const madeBy = id !== undefined && record ? def.madeBy?.(record) : undefined;
  const writable = (canWrite || own) && allows(def, id === undefined ? 'create' : 'edit') && !madeBy;
  return {
    canWrite,
    writable,
    deletable: canWrite && !own && id !== undefined && allows(def, 'delete') && !madeBy,
    canList: can(areas, def.area, 'read'),
    own,
    editable,
    locked: writable ? def.fields.filter((f) => !f.readOnly && !editable(f)) : [],
    confirm,
    madeBy,
  };
}
