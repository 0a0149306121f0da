/**
 * 顧客コードの一括採番 (`client_code_assign`, issue 19): customers without a 顧客コード get the next free numbers of
 * 自社情報's prefix (`client_code_prefix`, width `client_code_digits`). Typed once for the server
 * (server/clients/code-assign.ts) and the customer list's action.
 */

/** The most customers the answer lists one by one (`count` is all of them). */
export const CODE_ASSIGN_LISTED = 1000;

/** One customer and the code it gets. */
export interface ClientCodeRow {
  cl_id: number;
  name: string;
  code: string;
}

/** What `client_code_assign` answers: the plan (preview) or what was done (`assigned`). */
export interface ClientCodeAssignment {
  prefix: string;
  digits: number;
  /** Customers without a code (all of them get one). */
  count: number;
  /** The first `CODE_ASSIGN_LISTED` of them, by id. */
  rows: ClientCodeRow[];
  /** True once written (`commit=1`). */
  assigned: boolean;
}

/**
 * The next `count` free codes of a prefix: after the largest running number the prefix already has (any width), each
 * padded to `digits`. Codes of the prefix not followed by digits alone are not numbers of it.
 * @example nextClientCodes('C', 5, ['C00007', 'C12', 'CX1'], 2) // ['C00013', 'C00014']
 */
export function nextClientCodes(prefix: string, digits: number, taken: Iterable<string>, count: number): string[] {
  let last = 0;
  for (const code of taken) {
    if (!code.startsWith(prefix)) continue;
    const rest = code.slice(prefix.length);
    if (/^\d+$/.test(rest)) last = Math.max(last, Number(rest));
  }
  return Array.from({ length: count }, (_, i) => `${prefix}${String(last + 1 + i).padStart(digits, '0')}`);
}
