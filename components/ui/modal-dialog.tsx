/**
 * The one modal frame of the small dialogs (save a search, export a CSV): a `dialog` named by its title,
 * closed by Escape or a click outside, focus moved in on opening and back to the opener on closing.
 */
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';

export function ModalDialog({ title, onClose, children, width = 360 }: { title: string; onClose: () => void; children: ReactNode; width?: number }) {
  const titleId = useId();
  const box = useRef<HTMLDivElement>(null);
  // Read while rendering: children focus their own first input in their effects, which run before ours.
  const [opener] = useState(() => (typeof document === 'undefined' ? null : document.activeElement));
  useEffect(() => {
    if (!box.current?.contains(document.activeElement)) box.current?.focus();
    return () => (opener as HTMLElement | null)?.focus?.();
  }, [opener]);
  return (
    <div className="fixed inset-0 z-50 flex items-center justify-center bg-ink/30" onMouseDown={(e) => e.target === e.currentTarget && onClose()}>
      <div
        ref={box}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        style={{ width }}
        className="max-w-[95vw] rounded-[8px] bg-white p-[18px] shadow-xl focus:outline-none"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.stopPropagation();
            onClose();
          }
        }}
      >
        <h2 id={titleId} className="mb-[12px] text-[16px] font-bold text-ink">
          {title}
        </h2>
        {children}
      </div>
    </div>
  );
}
