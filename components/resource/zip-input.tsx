/**
 * The 郵便番号 input of every address block (customer, 配送先, 請求先, 自社情報, 倉庫, an order's 配送先): once 7 digits
 * are typed (or 「住所を入力」 is pressed) the server's bundled postal data (`postal_lookup`) fills 都道府県・市区町村
 * and puts the 町域 in the address (lib/postal.ts: which fields, what goes where). A code with several 町域 offers them
 * to choose; an unknown code says so and leaves the fields alone. A zip field without an address block beside it is a
 * plain input.
 */
import clsx from 'clsx';
import { useId, useRef, useState, type ChangeEvent } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { call } from '@/lib/client/api/fetcher';
import { messageOf } from '@/lib/client/list/use-list-controller';
import type { FormRecord } from '@/lib/list/record-mapper';
import { addressFill, addressTargetsOf, POSTAL_MESSAGES, postalDigits, type AddressTargets, type PostalAddress } from '@/lib/postal';
import { maxLength } from '@/lib/resources/schema';
import type { FieldDef } from '@/lib/resources/types';
import { buttonClass, inputClass } from './styles';

interface Said {
  ok: boolean;
  text: string;
}

export function ZipInput({ field, form, aria, disabled, onBlur }: {
  field: FieldDef;
  form: UseFormReturn<FormRecord>;
  aria: Record<string, unknown>;
  disabled?: boolean;
  onBlur?: () => void;
}) {
  const messageId = useId();
  const [said, setSaid] = useState<Said>();
  const [choices, setChoices] = useState<PostalAddress[]>([]);
  const [busy, setBusy] = useState(false);
  const asked = useRef('');
  const targets: AddressTargets | undefined = addressTargetsOf(field.name, (name) => Object.hasOwn(form.getValues(), name));
  const registered = form.register(field.name, { onBlur });

  const fill = (address: PostalAddress, block: AddressTargets) => {
    const values = addressFill(address, block, String(form.getValues(block.town) ?? ''));
    for (const [name, value] of Object.entries(values)) form.setValue(name, value, { shouldDirty: true, shouldValidate: form.formState.isSubmitted });
    setChoices([]);
    setSaid({ ok: true, text: POSTAL_MESSAGES.filled(address) });
  };

  const lookup = async (typed: string) => {
    if (!targets) return;
    const digits = postalDigits(typed);
    if (!digits) return;
    asked.current = digits;
    setBusy(true);
    try {
      const found = await call('postal_lookup', { zipcode: digits });
      // A code typed further meanwhile has its own lookup.
      if (asked.current !== digits) return;
      if (found.length === 0) {
        setChoices([]);
        setSaid({ ok: false, text: POSTAL_MESSAGES.unknown(`${digits.slice(0, 3)}-${digits.slice(3)}`) });
      } else if (found.length === 1) {
        fill(found[0], targets);
      } else {
        setChoices(found);
        setSaid({ ok: true, text: POSTAL_MESSAGES.several(found[0].zipcode, found.length) });
      }
    } catch (failure) {
      setSaid({ ok: false, text: messageOf(failure) ?? '' });
    } finally {
      setBusy(false);
    }
  };

  const onChange = async (event: ChangeEvent<HTMLInputElement>) => {
    await registered.onChange(event);
    const digits = postalDigits(event.target.value);
    if (!digits) {
      asked.current = '';
      setChoices([]);
      setSaid(undefined);
    } else if (digits !== asked.current) {
      await lookup(event.target.value);
    }
  };

  const describedBy = [aria['aria-describedby'], said ? messageId : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div className="flex flex-col gap-[4px]">
      <div className="flex items-center gap-[6px]">
        <input
          {...aria}
          aria-describedby={describedBy}
          type="text"
          inputMode="numeric"
          {...registered}
          onChange={(e) => void onChange(e)}
          disabled={disabled}
          maxLength={maxLength(field)}
          placeholder={field.placeholder ?? '100-0001'}
          autoComplete="off"
          className={clsx(inputClass, 'w-full max-w-[160px]')}
        />
        {targets && !disabled && (
          <button type="button" className={buttonClass('secondary', 'sm')} disabled={busy}
            onClick={() => {
              asked.current = '';
              void lookup(String(form.getValues(field.name) ?? ''));
            }}>
            住所を入力
          </button>
        )}
      </div>
      {choices.length > 0 && targets && (
        <select aria-label={`${field.label}の町域`} defaultValue="" className={clsx(inputClass, 'w-full')}
          onChange={(e) => {
            const chosen = choices[Number(e.target.value)];
            if (chosen) fill(chosen, targets);
          }}>
          <option value="" disabled>町域を選んでください（{choices.length}件）</option>
          {choices.map((c, i) => <option key={`${c.town}-${i}`} value={i}>{c.town || '（町域なし）'}</option>)}
        </select>
      )}
      {said && (
        <p id={messageId} role="status" className={clsx('text-[1.3rem]', said.ok ? 'text-ink-soft' : 'text-danger')}>
          {said.text}
        </p>
      )}
    </div>
  );
}
