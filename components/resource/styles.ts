/**
 * Class names shared by the resource screens, in the shell's colour tokens. Sizes are in px: the
 * page's base font is 62.5 % (1rem = 10px), so Tailwind's rem-based scale would draw too small.
 */
export { buttonClass } from '@/components/ui/button';

export const inputClass =
  'h-[32px] rounded-[4px] border border-line-strong bg-surface px-[8px] text-[1.4rem] text-ink ' +
  'focus:border-brand focus:outline-none focus:ring-[2px] focus:ring-brand/20 ' +
  'disabled:bg-subtle disabled:text-ink-soft aria-[invalid=true]:border-danger aria-[invalid=true]:ring-danger/15';

export const labelClass = 'text-[1.3rem] font-medium text-ink-soft';

/** A value shown where it is not edited (a derived field, a form the role may only read): text on a hairline, not a greyed box. */
export const valueClass =
  'min-h-[32px] w-full border-0 border-b border-dotted border-line bg-transparent px-[2px] text-[1.4rem] text-ink ' +
  'focus:border-brand focus:outline-none';
