'use client';
import { useAtomValue } from 'jotai';
import { Spinner } from '@/components/ui/spinner';
import { loadingCountAtom } from '@/lib/client/state/atoms';

/** Covers the work area while `useLoading().track(…)` work runs; fades in late so quick calls never flicker. */
export function LoadingOverlay() {
  const count = useAtomValue(loadingCountAtom);
  if (count <= 0) return null;
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label="読み込み中"
      className="hod-delayed-fade fixed inset-x-0 bottom-0 top-header z-[60] flex items-center justify-center bg-canvas/60"
    >
      <div className="flex items-center gap-[12px] rounded-[8px] border border-line bg-surface px-[20px] py-[14px] shadow-[0_6px_18px_rgba(16,40,56,0.14)]">
        <Spinner size={28} />
        <span className="text-[1.4rem] text-ink-soft">読み込み中…</span>
      </div>
    </div>
  );
}
