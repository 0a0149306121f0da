import clsx from 'clsx';
import { forwardRef, type ButtonHTMLAttributes } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'ghost';
export type ButtonSize = 'sm' | 'md';

const VARIANTS: Record<ButtonVariant, string> = {
  primary: 'bg-brand text-white border-brand hover:bg-brand-strong hover:border-brand-strong',
  secondary: 'bg-surface text-ink border-line-strong hover:bg-subtle',
  danger: 'bg-surface text-danger border-danger/50 hover:bg-danger-soft',
  ghost: 'bg-transparent text-ink-soft border-transparent hover:bg-subtle',
};
const SIZES: Record<ButtonSize, string> = {
  sm: 'h-[28px] px-[10px] text-[1.3rem]',
  md: 'h-[34px] px-[14px] text-[1.4rem]',
};

/** The button look, for links that act as buttons: `<Link className={buttonClass('primary')}>`. */
export function buttonClass(variant: ButtonVariant = 'secondary', size: ButtonSize = 'md'): string {
  return [
    'inline-flex items-center justify-center gap-[6px] whitespace-nowrap rounded-[4px] border font-medium',
    'transition-colors disabled:cursor-not-allowed disabled:opacity-50',
    VARIANTS[variant],
    SIZES[size],
  ].join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: ButtonVariant;
  size?: ButtonSize;
}

/** A button; `type="button"` unless told otherwise, so it never submits a form by accident. */
export const Button = forwardRef<HTMLButtonElement, ButtonProps>(function Button(
  { variant = 'secondary', size = 'md', className, type = 'button', ...rest },
  ref,
) {
  return <button ref={ref} type={type} className={clsx(buttonClass(variant, size), className)} {...rest} />;
});
