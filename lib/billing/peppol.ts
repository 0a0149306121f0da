/**
 * A customer's Peppol address (Peppol ID, `cl_peppol_id`): where its digital invoices (JP PINT) go — an ISO 6523 scheme
 * of 4 digits (0188 法人番号, 0221 適格請求書発行事業者登録番号 …) and the identifier, joined by 「:」 as Peppol writes them.
 */

export interface PeppolId {
  scheme: string;
  id: string;
}

const PEPPOL_ID = /^(\d{4}):([A-Za-z0-9][A-Za-z0-9._-]{0,49})$/;

/**
 * The scheme and identifier of a Peppol ID as typed (widths and spaces forgiven), or undefined when it is not one.
 * @example parsePeppolId('0188:1234567890123') // { scheme: '0188', id: '1234567890123' }
 */
export function parsePeppolId(value: unknown): PeppolId | undefined {
  const text = typeof value === 'string' ? value.normalize('NFKC').replace(/\s+/g, '') : '';
  const found = PEPPOL_ID.exec(text);
  return found ? { scheme: found[1], id: found[2] } : undefined;
}

/**
 * Why a Peppol ID cannot be used ('' when it can, or is empty).
 * @example peppolIdProblem('1234567890123') // 'Peppol ID は「0188:1234567890123」のように、スキーム 4 桁と識別子を「:」でつないで入力してください。'
 */
export function peppolIdProblem(value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : '';
  if (text === '' || parsePeppolId(text)) return '';
  return 'Peppol ID は「0188:1234567890123」のように、スキーム 4 桁と識別子を「:」でつないで入力してください。';
}
