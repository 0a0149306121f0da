import { describe, expect, it } from 'vitest';
import { CallError } from '@/lib/client/api/fetcher';
import { placeRefusal, refusalOf } from '@/lib/client/list/save-refusal';
import { MESSAGES } from '@/lib/protocol';
import { orderResource } from '@/lib/resources/order';

describe('refusalOf', () => {
  it('tells a stale edit, a refusal naming fields and any other failure apart', () => {
    expect(refusalOf(new CallError(MESSAGES.conflict, 409))).toEqual({ kind: 'conflict', message: MESSAGES.conflict, fields: {} });
    expect(refusalOf(new CallError('数量は整数で入力してください。', 400, { 'lines.0.quantity': '数量は整数で入力してください。' })))
      .toEqual({ kind: 'fields', message: '数量は整数で入力してください。', fields: { 'lines.0.quantity': '数量は整数で入力してください。' } });
    expect(refusalOf(new CallError('権限がありません。', 403))).toEqual({ kind: 'error', message: '権限がありません。', fields: {} });
    expect(refusalOf(new TypeError('boom'))).toEqual({ kind: 'error', message: MESSAGES.internal, fields: {} });
  });
});

describe('placeRefusal', () => {
  it('sorts field messages to the form (prefixed or not) and the child rows, dropping unknown keys', () => {
    const names = orderResource.fields.map((f) => f.name);
    const placed = placeRefusal(
      { od_date: '受注日を入力してください。', tracking_no: '送り状番号を入力してください。', 'lines.2.price': '単価は整数で…', 'lines.0.bogus': 'x', nothing: 'y' },
      { names, prefix: orderResource.prefix, child: orderResource.children },
    );
    expect(placed).toEqual({ form: { date: '受注日を入力してください。', tracking_no: '送り状番号を入力してください。' }, rows: { 2: { price: '単価は整数で…' } } });
  });
});
