import { describe, expect, it } from 'vitest';
import { overflowOfPaste } from '@/components/resource/field-input';
import { RESOURCES } from '@/lib/resources';
import { keywordHintOf } from '@/lib/resources/types';

describe('keyword hints', () => {
  it('name what each resource searches: the declared hint, else its keyword fields once each', () => {
    expect(keywordHintOf(RESOURCES.item)).toBe('商品コード・商品名・備考');
    expect(keywordHintOf(RESOURCES.user)).toBe('氏名・メールアドレス・チーム');
    expect(keywordHintOf(RESOURCES.client)).toBe('会社名・氏名・電話番号・住所など');
    expect(keywordHintOf(RESOURCES.souko)).toBe('倉庫コード・倉庫名・都道府県・住所など');
    for (const def of Object.values(RESOURCES)) if (def.list.keyword.length > 0) expect(keywordHintOf(def), def.name).not.toBe('');
  });
});

describe('pasting into a limited field', () => {
  it('counts what the limit drops, a replaced selection making room', () => {
    expect(overflowOfPaste({ value: 'abc', selectionStart: 3, selectionEnd: 3 }, 'defg', 5)).toBe(2);
    expect(overflowOfPaste({ value: 'abc', selectionStart: 0, selectionEnd: 3 }, 'defg', 5)).toBe(0);
    expect(overflowOfPaste({ value: '', selectionStart: 0, selectionEnd: 0 }, 'x'.repeat(300), 200)).toBe(100);
  });
});
