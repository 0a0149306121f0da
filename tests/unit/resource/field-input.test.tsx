/**
 * The generic field renderer for a user who may only read: every field is shown as its value (an option's or a record's
 * name, money with separators, a flag in words), a read-only text box named by its label — not a greyed-out input —
 * and a password is left out; no master is loaded for it.
 */
import { render, screen } from '@testing-library/react';
import { useForm } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { FieldInput, valueText } from '@/components/resource/field-input';
import type { FormRecord } from '@/lib/list/record-mapper';
import type { FieldDef } from '@/lib/resources/types';

vi.mock('@/lib/client/list/use-master-options', () => ({
  useMasterOptions: () => {
    throw new Error('a read-only field loads no master');
  },
}));

const FIELDS: FieldDef[] = [
  { name: 'co_name', label: '会社名', type: 'text', tab: 'basic', required: true },
  { name: 'rank', label: 'ランク', type: 'select', tab: 'basic', master: 'mt_rank' },
  { name: 'kind', label: '区分', type: 'select', tab: 'basic', options: [{ value: '1', text: '法人' }, { value: '2', text: '個人' }] },
  { name: 'delivery_usr_id', label: '配送担当者', type: 'ref', ref: 'user', tab: 'basic', master: 'mt_driver' },
  { name: 'parent_id', label: '請求親顧客', type: 'ref', ref: 'client', tab: 'basic' },
  { name: 'credit', label: '与信限度額', type: 'money', tab: 'basic' },
  { name: 'dm', label: 'DM送付', type: 'flag', tab: 'basic' },
  { name: 'note', label: '備考', type: 'textarea', tab: 'basic' },
  { name: 'password', label: 'パスワード', type: 'secret', tab: 'basic' },
];

const VALUES: FormRecord = { co_name: '株式会社テスト', rank: 'A', kind: '2', delivery_usr_id: '5', parent_id: '12', credit: '120000', dm: '1', note: '一行目\n二行目', password: '' };
const LABELS: Record<string, string> = { rank: 'Aランク', delivery_usr_id: '渡辺 次郎', parent_id: '本社商事' };

function ReadOnlyForm() {
  const form = useForm<FormRecord>({ defaultValues: VALUES });
  return <>{FIELDS.map((field) => <FieldInput key={field.name} field={field} form={form} disabled refLabel={LABELS[field.name] ?? ''} />)}</>;
}

describe('a field the user may only read', () => {
  it('is shown as its value in words, read-only, not disabled', () => {
    render(<ReadOnlyForm />);
    const shown: Record<string, string> = {
      会社名: '株式会社テスト', ランク: 'Aランク', 区分: '個人', 与信限度額: '120,000円', DM送付: 'はい', 備考: '一行目\n二行目',
    };
    for (const [label, value] of Object.entries(shown)) {
      const element = screen.getByLabelText(label);
      expect(element).toHaveValue(value);
      expect(element).toHaveAttribute('readonly');
      expect(element).not.toBeDisabled();
    }
    // A record it names is shown by its name (a link to it where the user may open it), never its id.
    for (const [label, name] of [['配送担当者', '渡辺 次郎'], ['請求親顧客', '本社商事']]) {
      const element = screen.getByLabelText(label);
      expect(element.tagName).toBe('OUTPUT');
      expect(element).toHaveTextContent(name);
    }
    expect(screen.queryByRole('combobox')).toBeNull();
    expect(screen.queryByRole('checkbox')).toBeNull();
    expect(screen.queryByText('必須')).toBeNull();
    expect(screen.queryByText(/文字$/)).toBeNull();
    expect(screen.queryByLabelText('パスワード')).toBeNull();
  });

  it('names a stored value its options lack by the detail\'s label, else by the value', () => {
    const select = FIELDS[1];
    expect(valueText(select, 'Z9', '旧ランク')).toBe('旧ランク');
    expect(valueText(select, 'Z9')).toBe('Z9');
    expect(valueText(select, '')).toBe('');
    expect(valueText(FIELDS[6], '0')).toBe('いいえ');
  });
});
