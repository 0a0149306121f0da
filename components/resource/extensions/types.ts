import type { Control } from 'react-hook-form';
import type { FormRecord } from '@/lib/list/record-mapper';
import type { ChildRowsState } from '@/lib/client/list/use-child-rows';
import type { Row } from '@/lib/client/list/use-list-controller';
import type { ResourceDef } from '@/lib/resources/types';
import type { LinesEditorProps } from '../lines-editor';

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

/** What a resource adds to the lines editor of its child rows (labels, counting, a totals row), given their state. */
export type LinesExtras = (state: ChildRowsState) => Omit<LinesEditorProps, 'state' | 'disabled' | 'readOnly'>;

/** What a panel under a new or saved record's form receives (FORM_PANELS): the form's state, to follow what is chosen. */
export interface FormPanelProps {
  def: ResourceDef;
  control: Control<FormRecord>;
  /** The saved record (undefined on a new one). */
  record: Row | undefined;
}
