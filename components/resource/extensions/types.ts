import type { Control } from 'react-hook-form';
import type { FormRecord } from '@/lib/list/record-mapper';
import type { ChildRowsState } from '@/lib/client/list/use-child-rows';
import type { Row } from '@/lib/client/list/use-list-controller';
import type { ResourceDef } from '@/lib/resources/types';

/** What an extra panel of a detail screen receives (only for a saved record). */
export interface DetailExtensionProps {
  def: ResourceDef;
  id: string;
  record: Row;
}

/** What the detail unfolded under a list row receives (extensions ROW_DETAILS). */
export interface RowDetailProps {
  def: ResourceDef;
  row: Row;
}

/** What the actions beside a related tab's list receive (RELATED_ACTIONS): the id of the record the tab is under. */
export interface RelatedActionProps {
  parentId: string;
}

/**
 * What a resource's lines section receives (LINES_SECTIONS): the child rows' state, whether the inputs wait (a save under
 * way), whether the rows are only read (the role, a locked record: shown as values), and the record form's state (to
 * follow what it holds: the sales slip's customer and date price its lines live).
 */
export interface LinesSectionProps {
  state: ChildRowsState;
  disabled: boolean;
  readOnly: boolean;
  control: Control<FormRecord>;
}

/** What a panel under a new or saved record's form receives (FORM_PANELS): the form's state, to follow what is chosen. */
export interface FormPanelProps {
  def: ResourceDef;
  control: Control<FormRecord>;
  /** The saved record (undefined on a new one). */
  record: Row | undefined;
}
