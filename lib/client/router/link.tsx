import type { AnchorHTMLAttributes, ReactNode } from 'react';
import { useHashPath } from './hooks';
import { isActivePath, pathFromHash } from './location';

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** A hash path: `/client/list`. */
  to: string;
  /** Class added when the link is the current page (it also gets `aria-current="page"`). */
  activeClassName?: string;
  children?: ReactNode;
}

/** The href of a hash path. Relative to the document, so `/dev/` stays in the address bar. */
export const hashHref = (to: string): string => `#${pathFromHash(to)}`;

/**
 * A link to a hash route: `<Link to="/client/list">顧客一覧</Link>` renders
 * `<a href="#/client/list">`, marked `aria-current="page"` when it is the current page.
 */
export function Link({ to, activeClassName, className, children, ...rest }: LinkProps) {
  const path = useHashPath();
  const active = isActivePath(to, path);
  const classes = [className, active ? activeClassName : undefined].filter(Boolean).join(' ') || undefined;
  return (
    <a href={hashHref(to)} aria-current={active ? 'page' : undefined} className={classes} {...rest}>
      {children}
    </a>
  );
}
