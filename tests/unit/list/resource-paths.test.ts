/**
 * @vitest-environment jsdom
 * (a new record's remembered values are kept in local storage)
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { linkedFilters, listFilters } from '@/lib/list/list-state';
import { newRecordValues } from '@/lib/client/list/new-record-values';
import { detailPathOf, filteredListPathOf, listPathOf, newPathOf, parentIdOf, refPathOf } from '@/lib/list/resource-paths';
import { auditLogResource } from '@/lib/resources/audit-log';
import { agreementResource } from '@/lib/resources/agreement';
import { clientResource } from '@/lib/resources/client';
import { contactResource } from '@/lib/resources/contact';
import { itemResource } from '@/lib/resources/item';
import { orderResource } from '@/lib/resources/order';
import { KEYS } from '@/lib/storage-keys';

describe('record paths from the route table', () => {
  it('a resource with its own routes opens there, and under the customer when the customer is given', () => {
    expect(detailPathOf(contactResource, 5)).toBe('/contact/detail/5');
    expect(detailPathOf(contactResource, 5, '12')).toBe('/client/detail/12/contact/5');
    expect(newPathOf(contactResource)).toBe('/contact/new');
    expect(newPathOf(contactResource, '12')).toBe('/client/detail/12/contact/new');
    expect(listPathOf(contactResource)).toBe('/contact/list');
    expect(listPathOf(contactResource, '12')).toBe('/client/detail/12');
  });

  it('a resource that lives only under the customer takes the customer from the row', () => {
    expect(newPathOf(agreementResource, '7')).toBe('/client/detail/7/agreement_new');
    const row = { ag_id: 3, ag_cl_id: 7 };
    expect(parentIdOf(agreementResource, row)).toBe('7');
    expect(detailPathOf(agreementResource, 3, parentIdOf(agreementResource, row))).toBe('/client/detail/7/agreement/3');
    expect(parentIdOf(contactResource, { ct_id: 1, ct_cl_id: 7 })).toBeUndefined();
    expect(detailPathOf(itemResource, 'W1')).toBe('/item/detail/W1');
  });

  it('a record another record names opens at its own detail, where it has one a row can reach', () => {
    expect(refPathOf(clientResource, 321)).toBe('/client/detail/321');
    expect(refPathOf(orderResource, 8)).toBe('/orders/detail/8');
    expect(refPathOf(agreementResource, 3)).toBeUndefined();
    expect(refPathOf(auditLogResource, 1)).toBeUndefined();
  });
});

describe('new record values', () => {
  beforeEach(() => localStorage.clear());

  it('start from the declared initial values: today, the logged-in user, literals', () => {
    const values = newRecordValues(contactResource, { userId: 4, today: '2026-11-22' });
    expect(values.uketsuke_date).toBe('2026-11-22');
    expect(values.usr_id).toBe('4');
    expect(values.status).toBe('1');
    expect(values.subject).toBe('');
    expect(newRecordValues(itemResource, {}).active).toBe('1');
  });

  it('a remembered value (the last reception date saved) wins over the initial one; fixed values win over both', () => {
    localStorage.setItem(KEYS.contactReceiptDate, JSON.stringify('2026-10-01'));
    expect(newRecordValues(contactResource, { today: '2026-11-22' }).uketsuke_date).toBe('2026-10-01');
    expect(newRecordValues(contactResource, { fixed: { cl_id: '12', uketsuke_date: '2026-01-05' } })).toMatchObject({ cl_id: '12', uketsuke_date: '2026-01-05' });
  });
});

describe('list filters', () => {
  it('take the allowed values of an in-filter from its field when the filter names none', () => {
    const status = listFilters(contactResource).find((f) => f.name === 'status');
    expect(status?.options?.map((o) => o.text)).toEqual(['未対応', '対応中', '完了']);
    expect(listFilters(contactResource)).toBe(listFilters(contactResource));
  });

  it('take every ref field and master-backed select as an implied filter, drawn only while set', () => {
    expect(listFilters(clientResource).find((f) => f.name === 'pm_id')).toEqual({ name: 'pm_id', label: '支払方法', kind: 'in', implied: true });
    expect(listFilters(contactResource).find((f) => f.name === 'cl_id')).toMatchObject({ kind: 'equals', implied: true });
    // A declared filter is not implied again.
    expect(listFilters(orderResource).filter((f) => f.name === 'cl_id')).toEqual([{ name: 'cl_id', label: '顧客', kind: 'equals' }]);
  });
});

describe('links to a filtered list', () => {
  it('carry the filters in the query of the list route, and the list reads them back', () => {
    const path = filteredListPathOf(orderResource, { cl_id: '12' });
    expect(path).toBe(`/orders/list/search?filter=${encodeURIComponent('{"cl_id":"12"}')}`);
    expect(linkedFilters(orderResource, new URLSearchParams(path!.split('?')[1]))).toEqual({ cl_id: '12' });
    expect(filteredListPathOf(clientResource, { pm_id: ['1'] })).toBe(`/client/list?filter=${encodeURIComponent('{"pm_id":["1"]}')}`);
  });
  it('are none where the resource has no list of its own or does not take the filter', () => {
    expect(filteredListPathOf(agreementResource, { cl_id: '12' })).toBeUndefined();
    expect(filteredListPathOf(clientResource, { nonsense: '1' })).toBeUndefined();
    expect(linkedFilters(clientResource, new URLSearchParams('filter=%7Bbroken'))).toBeUndefined();
  });
});
