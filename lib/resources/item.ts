/**
 * 商品 (item): bottled water, server rental and maintenance, delivery fees, deposits. The tax
 * class decides the rate on a slip's date (lib/tax); returnable bottles feed the bottle ledger.
 */
import { STAMP_FILTERS } from './common';
import { codeProblem } from './checks';
import * as O from './options';
import type { ResourceDef } from './types';

export const itemResource = {
  name: 'item',
  label: '商品',
  table: 'item',
  prefix: 'it_',
  basePath: '/item',
  screens: { list: '商品一覧', new: '商品登録', detail: '商品詳細', id: 'ite' },
  area: 'stock',
  storageKey: 'item',
  tabs: [
    { key: 'basic', label: '基本情報' },
    { key: 'stock', label: '在庫・容器' },
  ],
  fields: [
    { name: 'code', label: '商品コード', type: 'text', tab: 'basic', required: true, max: 20, unique: true },
    { name: 'name', label: '商品名', type: 'text', tab: 'basic', required: true, max: 100, reading: 'kana' },
    { name: 'kana', label: '商品名カナ', type: 'kana', tab: 'basic', max: 100 },
    { name: 'class', label: '商品分類', type: 'select', tab: 'basic', master: 'mt_item_class' },
    { name: 'unit', label: '単位', type: 'select', tab: 'basic', options: O.ITEM_UNIT, required: true, initial: '本' },
    { name: 'price', label: '標準単価（税抜）', type: 'money', tab: 'basic', required: true, min: -9_999_999, max: 9_999_999 },
    { name: 'cost', label: '原価', type: 'money', tab: 'basic', min: 0, max: 9_999_999 },
    { name: 'tax_class', label: '税区分', type: 'select', tab: 'basic', options: O.TAX_CLASS, required: true, initial: 'reduced' },
    { name: 'active', label: '販売中', type: 'flag', tab: 'basic', initial: '1' },
    { name: 'sort', label: '表示順', type: 'number', tab: 'basic', min: 0, max: 99_999 },
    { name: 'note', label: '備考', type: 'textarea', tab: 'basic', wide: true },
    { name: 'returnable', label: 'リターナブルボトル', type: 'flag', tab: 'stock' },
    { name: 'deposit', label: '容器保証金（1本）', type: 'money', tab: 'stock', min: 0, max: 99_999 },
    { name: 'stock_tracked', label: '在庫管理する', type: 'flag', tab: 'stock', initial: '1' },
    { name: 'reorder_point', label: '発注点', type: 'number', tab: 'stock', min: 0, max: 999_999 },
  ],
  list: {
    columns: [
      { name: 'it_code', label: '商品コード' },
      { name: 'it_name', label: '商品名' },
      { name: 'it_class', label: '商品分類', format: 'option' },
      { name: 'it_unit', label: '単位', format: 'option' },
      { name: 'it_price', label: '標準単価', format: 'money' },
      { name: 'it_tax_class', label: '税区分', format: 'option' },
      { name: 'it_returnable', label: 'リターナブル', format: 'flag' },
      { name: 'it_active', label: '販売中', format: 'flag' },
    ],
    sortable: ['it_id', 'it_code', 'it_name', 'it_kana', 'it_class', 'it_price', 'it_tax_class', 'it_sort', 'created', 'modified'],
    keyword: ['code', 'name', 'kana', 'note'],
    defaultSort: { col: 'it_code', odr: 'asc' },
    filters: [
      { name: 'class', label: '商品分類', kind: 'in' },
      { name: 'tax_class', label: '税区分', kind: 'in' },
      { name: 'active', label: '販売状態', kind: 'in', options: [{ value: '1', text: '販売中' }, { value: '0', text: '販売終了' }] },
      { name: 'price', label: '標準単価', kind: 'numberRange' },
      ...STAMP_FILTERS,
    ],
  },
  titleFields: ['name'],
  // Items are told apart by code and price (「W-12 天然水 12L 1,200円」), in every picker of an item.
  picker: { lead: 'it_code', details: [{ name: 'it_price', label: '標準単価（税抜）', format: 'money' }] },
  check: (values) => codeProblem(values, 'code', '商品コード'),
} as const satisfies ResourceDef;
