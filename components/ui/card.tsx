import clsx from 'clsx';
import { useId, type ReactNode } from 'react';

export interface CardProps {
  /** Heading of the card (an h2), which also names the region. */
  title?: ReactNode;
  /** Buttons or links at the right of the heading. */
  actions?: ReactNode;
  /** The small scrolling card of spec §9: at most 200px high, scrolls inside. */
  scroll?: boolean;
  className?: string;
  children?: ReactNode;
}

/** A white surface with an optional heading: the building block of every screen. */
export function Card({ title, actions, scroll, className, children }: CardProps) {
  const id = useId();
  return (
    <section
      aria-labelledby={title ? id : undefined}
      className={clsx('rounded-[6px] border border-line bg-surface shadow-[0_1px_2px_rgba(16,40,56,0.05)]', className)}
    >
      {(title || actions) && (
        <div className="flex min-h-[44px] items-center justify-between gap-[12px] border-b border-line px-[16px] py-[8px]">
          {title && (
            <h2 id={id} className="text-[1.5rem] font-semibold text-ink">
              {title}
            </h2>
          )}
          {actions && <div className="flex items-center gap-[8px]">{actions}</div>}
        </div>
      )}
      <div className={clsx('px-[16px] py-[14px]', scroll && 'max-h-card-sm overflow-y-auto')}>{children}</div>
    </section>
  );
}
