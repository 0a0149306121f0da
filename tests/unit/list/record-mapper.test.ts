import { describe, expect, it } from 'vitest';
import { fromForm, idOf, toForm } from '@/lib/list/record-mapper';
import { clientResource as def } from '@/lib/resources/client';
import { orderResource } from '@/lib/resources/order';
import type { FieldDef } from '@/lib/resources/types';

const row = {
  cl_id: 12,
  cl_co_name: '株式会社アクア',
  cl_tel_1: '03-1234-5678',
  cl_lat: 35.68,
  cl_dm: 1,
  cl_point_taishou: 0,
  cl_pw: 'hash-should-never-show',
  cl_uri_zan: 5000,
  cl_memo: null,
  created: '2026-01-01T00:00:00.000Z',
  modified: '2026-02-03T04:05:06.789Z',
};

describe('record mapper', () => {
  it('maps prefixed answer names to unprefixed form names', () => {
    const form = toForm(def, row);
    expect(form.co_name).toBe('株式会社アクア');
    expect(form.tel_1).toBe('03-1234-5678');
    expect(form.lat).toBe('35.68');
    expect(form.memo).toBe('');
    expect(form.uri_zan).toBe('5000');
    expect(form.modified).toBe('2026-02-03T04:05:06.789Z');
    expect(Object.keys(form).some((k) => k.startsWith('cl_'))).toBe(false);
    expect(Object.keys(form)).toHaveLength(def.fields.length + 1);
  });

  it('never prefills a secret and turns flags into 1/0', () => {
    const form = toForm(def, row);
    expect(form.pw).toBe('');
    expect(form.dm).toBe('1');
    expect(form.point_taishou).toBe('0');
  });

  it('gives empty values for a new record', () => {
    const form = toForm(def, undefined);
    expect(form.co_name).toBe('');
    expect(form.modified).toBe('');
  });

  it('maps back to a save postData with modified, without read-only fields or an untouched password', () => {
    const values = { ...toForm(def, row), co_name: '株式会社アクア東京' };
    const post = fromForm(def, values);
    expect(post.co_name).toBe('株式会社アクア東京');
    expect(post.modified).toBe(row.modified);
    expect(post.dm).toBe(1);
    expect('uri_zan' in post).toBe(false);
    expect('last_login' in post).toBe(false);
    expect('pw' in post).toBe(false);
    expect(fromForm(def, { ...values, pw: 'new-secret' }).pw).toBe('new-secret');
  });

  it('round-trips: toForm(fromForm(form)) keeps every writable value', () => {
    const form = toForm(def, row);
    const back = toForm(def, Object.fromEntries(Object.entries(fromForm(def, form)).map(([k, v]) => [k === 'modified' ? k : `cl_${k}`, v])));
    for (const f of def.fields.filter((x: FieldDef) => !x.readOnly && x.type !== 'secret')) expect(back[f.name]).toBe(form[f.name]);
  });

  it('keeps parsed (typed) values from the schema as they are', () => {
    expect(fromForm(def, { yoshin_gendo: 100000, lat: null, dm: 0 })).toEqual({ yoshin_gendo: 100000, lat: null, dm: 0 });
  });

  it('works for another resource (no customer-specific code)', () => {
    const form = toForm(orderResource, { od_id: 5, od_cl_id: 12, od_status: 'pending', modified: 'm' });
    expect(form).toMatchObject({ cl_id: '12', status: 'pending', modified: 'm' });
    expect(idOf(orderResource, { od_id: 5 })).toBe('5');
  });
});
