/**
 * The logic of the customer's 設置・交換・引上げ dialogs (the drawing is components/resource/extensions/
 * server-moves.tsx): the servers to choose from — in stock (a keyword narrows them), installed at the
 * customer — and the `server_upd` call, after which every list, count and detail the move changed is stale
 * (servers, their history, agreements, the customer).
 */
import { useCallback } from 'react';
import { useSWRConfig } from 'swr';
import { call, CallError } from '../api/fetcher';
import { messageOf, type Row } from '../list/use-list-controller';
import { MESSAGES } from '../../protocol';
import type { ServerMoveKind } from '../../servers/move';
import { useCall } from '../data/use-call';

/** What a dialog sends: the server, the one it replaces (交換), the warehouse it goes back to (引上げ), the day. */
export interface ServerMoveValues {
  id: string;
  old_id?: string;
  sk_id?: string;
  date: string;
}

export type ServerMoveOutcome = { ok: true; row: Row } | { ok: false; message: string; fields?: Record<string, string> };

/** Calls whose answers a move makes stale. */
const STALE = ['server_', 'serverhistory_', 'agreement_', 'client_'];

/** At most this many servers are offered in a picker; the keyword finds the others. */
export const MOVE_PICK_LIMIT = 50;

/** Servers of one status, optionally of one customer, by serial number (`kw` narrows them). */
export function useServerChoices(status: 'stock' | 'installed', customerId?: string, keyword = '') {
  const params = {
    n: MOVE_PICK_LIMIT, p: 1, col: 'sv_serial_no', odr: 'asc', kw: keyword,
    postData: { status: [status] }, ...(customerId ? { cl_id: customerId } : {}),
  };
  const { data, isLoading } = useCall('server_lst', params, { revalidateOnFocus: false, keepPreviousData: true });
  return { rows: data ?? [], isLoading };
}

/**
 * @example const { move } = useServerMove('12'); await move('install', { id: '31', date: '2026-05-01' })
 */
export function useServerMove(customerId: string) {
  const { mutate } = useSWRConfig();
  const move = useCallback(async (kind: ServerMoveKind, values: ServerMoveValues): Promise<ServerMoveOutcome> => {
    const params = {
      id: values.id, date: values.date,
      ...(kind === 'takeback' ? { sk_id: values.sk_id } : { cl_id: customerId }),
      ...(kind === 'exchange' ? { old_id: values.old_id, sk_id: values.sk_id } : {}),
    };
    try {
      const [row] = await call('server_upd', params);
      void mutate((key) => Array.isArray(key) && typeof key[0] === 'string' && (key[0] === 'master_lst' || STALE.some((prefix) => (key[0] as string).startsWith(prefix))));
      return row ? { ok: true, row } : { ok: false, message: MESSAGES.internal };
    } catch (e) {
      return { ok: false, message: messageOf(e) ?? MESSAGES.internal, fields: e instanceof CallError ? e.fields : undefined };
    }
  }, [customerId, mutate]);
  return { move };
}
