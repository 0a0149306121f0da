export interface SpinnerProps {
  /** Accessible name; omit when the surrounding element already says what is loading. */
  label?: string;
  size?: number;
  /** `light` on dark or coloured backgrounds (a primary button). */
  tone?: 'brand' | 'light';
  className?: string;
}

/** A quiet ring spinner. With `label` it is an image named by it; without, it is decorative. */
export function Spinner({ label, size = 24, tone = 'brand', className }: SpinnerProps) {
  return (
    <span
      role={label ? 'img' : undefined}
      aria-label={label}
      aria-hidden={label ? undefined : true}
      className={[
        'hod-spinner inline-block shrink-0 rounded-full border-[3px]',
        tone === 'light' ? 'border-white/30 border-t-white' : 'border-brand/20 border-t-brand',
        className,
      ]
        .filter(Boolean)
        .join(' ')}
      style={{ width: size, height: size }}
    />
  );
}
