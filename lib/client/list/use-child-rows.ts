/**
 * Headless state of a record's child rows on a form (ResourceDef.children): the rows being edited, read
 * from the stored ones without throwing away edits, whether they changed, the server's messages per row
 * (cleared when the row changes), and the rows a save sends. The lines editor draws it.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ChildDef } from '../../resources/types';
import { checkChildRow, childCellId, childPayload, childRowsKey, childRowsOf, emptyChildRow, messagesByRowKey, type ChildRow } from './child-rows';
import type { ChildRowsState, RowMessages } from './child-rows-state';
import type { Row } from './use-list-controller';

export type { ChildRowsState } from './child-rows-state';

/** The rows the form edits of stored ones; none (or only derived ones) shows one blank row. */
function editableRows(child: ChildDef, stored: readonly Row[], newRow: () => ChildRow): ChildRow[] {
  const rows = childRowsOf(child, stored);
  return rows.length ? rows : [newRow()];
}

/**
 * @example const lines = useChildRows(orderResource.children!, rec.children, { quantity: '1' });
 */
export function useChildRows(child: ChildDef, stored: readonly Row[] | undefined, initial?: Record<string, string>): ChildRowsState {
  const initialKey = JSON.stringify(initial ?? {});
  const newRow = useCallback(() => emptyChildRow(child, JSON.parse(initialKey) as Record<string, string>), [child, initialKey]);
  const [rows, setRowsState] = useState<readonly ChildRow[]>(() => editableRows(child, stored ?? [], newRow));
  const [loadedKey, setLoadedKey] = useState(() => childRowsKey(child, rows));
  const [messages, setMessages] = useState<Record<number, Record<string, string>>>({});
  const dirty = childRowsKey(child, rows) !== loadedKey;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  /** The stored rows last shown, the latest ones, and whether a save asked for the next ones. */
  const shownFrom = useRef(stored);
  const latest = useRef(stored);
  latest.current = stored;
  const takeNext = useRef(false);

  const load = useCallback((from: readonly Row[]) => {
    shownFrom.current = from;
    const next = editableRows(child, from, newRow);
    setRowsState(next);
    setLoadedKey(childRowsKey(child, next));
    setMessages({});
  }, [child, newRow]);

  // Newly read rows replace those on screen unless the user has changed them (or they were just saved).
  useEffect(() => {
    if (!stored || stored === shownFrom.current) return;
    if (!dirtyRef.current || takeNext.current) {
      takeNext.current = false;
      load(stored);
    }
  }, [stored, load]);

  // The rows read back after a save (or a reload) may arrive after this call, or be the same answer as before.
  const markSaved = () => {
    setLoadedKey(childRowsKey(child, rows));
    takeNext.current = true;
    if (latest.current) load(latest.current);
  };

  const setRows = useCallback((next: readonly ChildRow[]) => {
    takeNext.current = false;
    setRowsState((before) => {
      const changed = new Set(next.filter((row) => before.find((b) => b.key === row.key)?.values !== row.values).map((row) => row.key));
      setMessages((now) => (Object.keys(now).some((key) => changed.has(Number(key))) ? Object.fromEntries(Object.entries(now).filter(([key]) => !changed.has(Number(key)))) : now));
      return next;
    });
  }, []);

  const showMessages = (sent: RowMessages): string | undefined => {
    const byKey = messagesByRowKey(child, rows, sent);
    setMessages(byKey);
    const first = rows.find((row) => byKey[row.key]);
    const field = first && child.fields.find((f) => byKey[first.key][f.name]);
    return first && field ? childCellId(first.key, field.name) : undefined;
  };

  const problemsOf = (row: ChildRow) => ({ ...messages[row.key], ...checkChildRow(child, row) });
  const firstInvalid = () => {
    for (const row of rows) {
      const problems = checkChildRow(child, row);
      const field = child.fields.find((f) => problems[f.name]);
      if (field) return childCellId(row.key, field.name);
    }
    return undefined;
  };

  return {
    child, rows, setRows, newRow, messages, problemsOf, firstInvalid, showMessages, dirty,
    payload: () => childPayload(child, rows),
    load,
    markSaved,
  };
}
