/** Keyword box: searches on 「検索」 or Enter, never on the Enter that confirms an IME conversion. */
import clsx from 'clsx';
import { useEffect, useId, useState } from 'react';
import { useImeSafeEnter } from '@/lib/client/list/keyword-input';
import { LIMITS } from '@/lib/protocol';
import { buttonClass, inputClass } from './styles';

/** `placeholder` names what the box searches (`keywordHintOf` of the resource). */
export function KeywordBox({ value, onSearch, placeholder }: { value: string; onSearch: (keyword: string) => void; placeholder: string }) {
  const id = useId();
  const [draft, setDraft] = useState(value);
  useEffect(() => setDraft(value), [value]);
  const handlers = useImeSafeEnter(() => onSearch(draft));
  return (
    <div role="search" className="flex items-center gap-[6px]">
      <label htmlFor={id} className="text-[13px] text-ink-soft">
        キーワード
      </label>
      <input
        id={id}
        type="search"
        value={draft}
        maxLength={LIMITS.maxKeyword}
        onChange={(e) => setDraft(e.target.value)}
        placeholder={placeholder}
        className={clsx(inputClass, 'w-[260px]')}
        {...handlers}
      />
      <button type="button" className={buttonClass('primary')} onClick={() => onSearch(draft)}>
        検索
      </button>
    </div>
  );
}
