/**
 * 顧客コードの一括採番 (`client_code_assign`): every live customer without a 顧客コード gets the next free number of
 * 自社情報's prefix, in id order — previewed (nothing written), then written in ONE transaction through the write path
 * (`saveBatch`: the code field's rules, uniqueness, an audit row per customer). Runs one at a time (`serialize`).
 */
import { sql, type Kysely } from 'kysely';
import { CODE_ASSIGN_LISTED, nextClientCodes, type ClientCodeAssignment } from '../../lib/clients/code-assign';
import { clientResource } from '../../lib/resources/client';
import { CLIENT_CODE_DIGITS, COMPANY_SETTING_ID, companyResource } from '../../lib/resources/company';
import { recordMessage } from '../../lib/resources/schema';
import { titleOf } from '../../lib/resources/types';
import { serialize } from '../db/concurrency';
import type { Database } from '../db/schema';
import { ApiError, badRequest } from '../http/api-error';
import { type WriteActor, saveBatch } from '../resources';

const CODE_MAX = clientResource.fields.find((f) => f.name === 'code')?.max ?? 20;
const labelOf = (name: string): string => companyResource.fields.find((f) => f.name === name)?.label ?? name;

/**
 * The codes the customers without one get; with `commit` they are saved. 400 when 自社情報 has no prefix or the codes
 * would pass the code's length.
 * @example await assignClientCodes(db, { userId: 1, call: 'client_code_assign' }, false) // { prefix: 'C', digits: 5, count: 2, rows: [{ cl_id: 3, name: '…', code: 'C00008' }, …], assigned: false }
 */
export async function assignClientCodes(db: Kysely<Database>, actor: WriteActor, commit: boolean): Promise<ClientCodeAssignment> {
  return db.transaction().execute(async (trx) => {
    await serialize(trx, 'client_code_assign');
    const company = await trx.selectFrom('company_setting').select(['cs_client_code_prefix', 'cs_client_code_digits']).where('cs_id', '=', COMPANY_SETTING_ID).executeTakeFirst();
    const prefix = String(company?.cs_client_code_prefix ?? '').trim();
    if (!prefix) throw badRequest(`自社情報の「${labelOf('client_code_prefix')}」を設定してください（顧客コードはこの文字と連番になります）。`);
    const digits = Number(company?.cs_client_code_digits) || CLIENT_CODE_DIGITS;
    const customers = await trx.selectFrom('client').select(['cl_id', 'cl_co_name', 'cl_name', 'modified']).where('deleted', '=', 0)
      .where((eb) => eb.or([eb('cl_code', 'is', null), eb('cl_code', '=', '')])).orderBy('cl_id').execute();
    // Every customer's code of the prefix, deleted ones too: a number once given is not given again.
    const taken = await trx.selectFrom('client').select('cl_code').where(sql<boolean>`substr(cl_code, 1, ${prefix.length}) = ${prefix}`).execute();
    const codes = nextClientCodes(prefix, digits, taken.map((c) => String(c.cl_code)), customers.length);
    const longest = codes.at(-1) ?? '';
    if (longest.length > CODE_MAX) throw badRequest(`顧客コード「${longest}」が ${CODE_MAX} 文字を超えます。自社情報の「${labelOf('client_code_prefix')}」か「${labelOf('client_code_digits')}」を短くしてください。`);
    if (commit && customers.length) {
      await saveBatch(trx, actor, clientResource, customers.map((c, i) => ({ id: Number(c.cl_id), values: { code: codes[i], modified: c.modified } })), {
        answer: false,
        // A customer the write path refuses is named (its own rules, e.g. a code taken meanwhile).
        name: (i, error) => (error instanceof ApiError && error.status === 400 ? badRequest(recordMessage(titleOf(clientResource, customers[i]), error.message), error.extra) : error),
      });
    }
    return {
      prefix, digits, count: customers.length, assigned: commit,
      rows: customers.slice(0, CODE_ASSIGN_LISTED).map((c, i) => ({ cl_id: Number(c.cl_id), name: titleOf(clientResource, c), code: codes[i] })),
    };
  });
}
