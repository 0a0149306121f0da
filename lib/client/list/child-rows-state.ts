/**
 * The types shared by the child rows' state (use-child-rows.ts) and the refusal it shows (save-refusal.ts), kept apart
 * so neither imports the other.
 */
import type { ChildDef } from '../../resources/types';
import type { ChildRow } from './child-rows';
import type { Row } from './use-list-controller';

/** Messages of child rows: row index (0-based, as sent) → field → message. */
export type RowMessages = Record<number, Record<string, string>>;

export interface ChildRowsState {
  child: ChildDef;
  rows: readonly ChildRow[];
  /** Replaces the rows; a row whose values changed loses the server's messages. */
  setRows: (rows: readonly ChildRow[]) => void;
  /** A row as a new one starts (the `initial` given to the hook). */
  newRow: () => ChildRow;
  /** The server's messages by row key. */
  messages: Readonly<Record<number, Record<string, string>>>;
  /** A row's messages: the save's own check of its values (live), else the server's. */
  problemsOf: (row: ChildRow) => Record<string, string>;
  /** The id of the first cell the save's check refuses (a save is stopped there), if any. */
  firstInvalid: () => string | undefined;
  /** Shows a refusal's row messages (keyed by the index among the rows sent); answers the first named cell's id. */
  showMessages: (sent: RowMessages) => string | undefined;
  /** The rows differ from the ones loaded (or saved). */
  dirty: boolean;
  /** The rows a save sends. */
  payload: () => Record<string, string>[];
  /** Starts over from stored rows (a copy's, a reload's); an empty list shows one blank row. */
  load: (stored: readonly Row[]) => void;
  /** The rows on screen are what the record now holds (after a save): the next stored rows replace them. */
  markSaved: () => void;
}
