/** The saved-search selector of a list: choose, save the current conditions, delete. */
import clsx from 'clsx';
import { useId, useState } from 'react';
import type { ListController } from '@/lib/client/list/use-list-controller';
import { useSavedSearches } from '@/lib/client/list/use-saved-searches';
import { MESSAGES } from '@/lib/protocol';
import { SaveSearchDialog } from './save-search-dialog';
import { useAlert, useConfirm } from './shell-bridge';
import { buttonClass, inputClass } from './styles';

export function SavedSearchBar({ list }: { list: ListController }) {
  const id = useId();
  const alert = useAlert();
  const confirm = useConfirm();
  const searches = useSavedSearches(list.def, {
    onApply: list.applySavedSearch,
    current: list.currentQueryForSave,
  });
  const [dialog, setDialog] = useState(false);
  const selected = searches.items.find((i) => String(i.srch_id) === searches.selectedId);

  const remove = async () => {
    if (!selected) return;
    if (await confirm(`保存した検索「${selected.srch_name}」を削除しますか？`, { title: '保存した検索の削除', confirmLabel: '削除する', danger: true })) await searches.remove();
  };

  return (
    <div className="flex flex-wrap items-center gap-[6px]">
      <label htmlFor={id} className="text-[13px] text-ink-soft">
        保存した検索
      </label>
      <select id={id} className={clsx(inputClass, 'w-[200px]')} value={searches.selectedId} onChange={(e) => void searches.select(e.target.value)} disabled={searches.busy}>
        <option value="">（選択してください）</option>
        {searches.items.map((item) => (
          <option key={item.srch_id} value={String(item.srch_id)}>
            {item.srch_name}
          </option>
        ))}
      </select>
      <button type="button" className={buttonClass('secondary')} onClick={() => setDialog(true)} disabled={searches.busy}>
        検索条件を保存
      </button>
      <button type="button" className={buttonClass('danger')} onClick={() => void remove()} disabled={!selected || searches.busy}>
        削除
      </button>
      {searches.error && !dialog && (
        <p role="alert" className="text-[13px] text-danger">
          {searches.error}
        </p>
      )}
      {dialog && (
        <SaveSearchDialog
          initialName={selected?.srch_name ?? ''}
          busy={searches.busy}
          error={searches.error}
          onClose={() => setDialog(false)}
          onSave={(name) =>
            void searches.save(name).then((saved) => {
              if (!saved) return;
              setDialog(false);
              alert(MESSAGES.searchSaved);
            })
          }
        />
      )}
    </div>
  );
}
