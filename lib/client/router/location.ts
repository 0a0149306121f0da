/**
 * The hash location as a tiny external store, plus the leave guard.
 *
 * Why hash routing: one static `index.html` serves every screen under `/` and `/dev/`; hash hrefs
 * (`#/client/list`) are relative to the document, so the `/dev` prefix is kept without any code.
 *
 * Why the guard works on the store rather than on React: a `hashchange` cannot be cancelled, so the
 * store only *commits* a new path when no form is dirty (or the user agreed to leave). A refused
 * change is put back in the address bar and the screen never re-renders.
 *
 * Never write `history.state` here: Next's app router reloads the page when it pops an entry whose
 * state lacks its own marker, and hash entries carry `null`, which it ignores. And Next answers a popped
 * entry of its own (the one the page was loaded or reloaded on) by writing that entry's URL back with
 * `replaceState` in a React transition, which may commit after the guard has put the edited record
 * back in the address bar: this router owns the hash, so a `replaceState` keeps the hash the address
 * bar shows (`keepHash`).
 */
import { MESSAGES } from '../../protocol';

type Listener = () => void;

const listeners = new Set<Listener>();
const guards = new Set<object>();
let started = false;
let current = '/';
let currentIndex: number | null = null;
/** A path the next hashchange may commit without asking (the user already agreed). */
let allowOnce: string | null = null;
let asking = false;

let confirmLeaveFn: (message: string) => Promise<boolean> = (message) =>
  Promise.resolve(typeof window === 'undefined' ? true : window.confirm(message));

interface NavigationLike {
  currentEntry?: { index: number } | null;
}

function entryIndex(): number | null {
  if (typeof window === 'undefined') return null;
  const nav = (window as unknown as { navigation?: NavigationLike }).navigation;
  const index = nav?.currentEntry?.index;
  return typeof index === 'number' && index >= 0 ? index : null;
}

/** The path part of a hash: `#/client/list?x=1` → `/client/list?x=1`; empty → `/`. */
export function pathFromHash(hash: string): string {
  const raw = hash.replace(/^#/, '');
  if (!raw || raw === '/') return '/';
  return raw.startsWith('/') ? raw : `/${raw}`;
}

function readHash(): string {
  return typeof window === 'undefined' ? '/' : pathFromHash(window.location.hash);
}

function emit(): void {
  listeners.forEach((l) => l());
}

function commit(path: string, index: number | null): void {
  currentIndex = index;
  if (path === current) return;
  current = path;
  emit();
}

const isDirty = (): boolean => guards.size > 0;

function onHashChange(): void {
  const next = readHash();
  const index = entryIndex();
  if (next === current) {
    // A revert landed, or the hash was re-set to the same path.
    currentIndex = index;
    allowOnce = null;
    return;
  }
  if (next === allowOnce || !isDirty()) {
    allowOnce = null;
    commit(next, index);
    return;
  }
  // A dirty form is open and the user used back/forward or typed a URL: put the old URL back first.
  const fromIndex = currentIndex;
  const delta = index !== null && fromIndex !== null && index !== fromIndex ? fromIndex - index : null;
  if (delta !== null) window.history.go(delta);
  else window.location.hash = current;
  if (asking) return;
  asking = true;
  void confirmLeaveFn(MESSAGES.unsaved)
    .then((ok) => {
      if (!ok) return;
      allowOnce = next;
      if (delta !== null) window.history.go(-delta);
      else window.location.hash = next;
    })
    .finally(() => {
      asking = false;
    });
}

/**
 * A URL written by `replaceState` with the hash the address bar shows now (same document only):
 * the framework may update its state and its URL, never the route.
 */
function keepHash(url: string | URL): string | URL {
  const next = new URL(String(url), window.location.href);
  if (next.origin !== window.location.origin || next.pathname !== window.location.pathname || next.search !== window.location.search) return url;
  next.hash = window.location.hash;
  return next.href;
}

/** Routes every `replaceState` (the framework's included) through `keepHash`. */
function guardReplaceState(): void {
  // eslint-disable-next-line @typescript-eslint/unbound-method -- called with the History it was taken from (`replace.call(this, …)`)
  const replace = window.history.replaceState;
  window.history.replaceState = function replaceState(this: History, data: unknown, unused: string, url?: string | URL | null) {
    replace.call(this, data, unused, url === undefined || url === null ? url : keepHash(url));
  };
}

function onBeforeUnload(event: BeforeUnloadEvent): void {
  if (!isDirty()) return;
  event.preventDefault();
  // Older Chromium needs returnValue set to show the dialog.
  event.returnValue = '';
}

/** In-app links are intercepted before the hash changes, so a refused leave leaves no trace in history. */
function onClickCapture(event: MouseEvent): void {
  if (!isDirty() || event.defaultPrevented || event.button !== 0) return;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const anchor = (event.target as Element | null)?.closest?.('a[href]');
  if (!(anchor instanceof HTMLAnchorElement)) return;
  if (anchor.target && anchor.target !== '_self') return;
  if (anchor.hasAttribute('download')) return;
  const href = anchor.getAttribute('href') ?? '';
  if (!href.startsWith('#/') && href !== '#') return;
  event.preventDefault();
  void navigate(pathFromHash(href));
}

function start(): void {
  if (started || typeof window === 'undefined') return;
  started = true;
  current = readHash();
  currentIndex = entryIndex();
  window.addEventListener('hashchange', onHashChange);
  guardReplaceState();
  document.addEventListener('click', onClickCapture, true);
}

/** Subscribe to path changes (for `useSyncExternalStore`). */
export function subscribePath(listener: Listener): () => void {
  start();
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** The committed hash path, e.g. `/client/list` (with `?query` when the hash has one). */
export function currentPath(): string {
  start();
  return current;
}

/** Replaces the question asked before leaving a dirty form (the shell plugs in its confirm dialog). */
export function setLeaveConfirm(fn: (message: string) => Promise<boolean>): void {
  confirmLeaveFn = fn;
}

/**
 * Whether the user may leave the current screen: true when no form is dirty, otherwise asks
 * MESSAGES.unsaved. Use before actions that leave without a link (logout, programmatic redirects).
 */
export async function confirmLeave(): Promise<boolean> {
  if (!isDirty()) return true;
  return confirmLeaveFn(MESSAGES.unsaved);
}

export interface NavigateOptions {
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
  /** Skip the unsaved-changes question (e.g. right after a successful save, or on logout). */
  force?: boolean;
}

/**
 * Goes to a hash path. Resolves to false when the user chose to stay on a dirty form.
 * @example await navigate('/client/detail/12')
 */
export async function navigate(path: string, options: NavigateOptions = {}): Promise<boolean> {
  if (typeof window === 'undefined') return false;
  start();
  const to = pathFromHash(path);
  if (!options.force && to !== current && !(await confirmLeave())) return false;
  allowOnce = to;
  if (window.location.hash === `#${to}`) {
    // The address bar already shows it (a refused change was reverted meanwhile): commit directly.
    allowOnce = null;
    commit(to, entryIndex());
  } else if (options.replace || readHash() === to) {
    // `readHash() === to` with another spelling (an empty hash for `/`): just write it out.
    window.location.replace(`#${to}`);
  } else {
    window.location.hash = to;
  }
  return true;
}

/** Registers a dirty form (internal to `useLeaveGuard`). Returns the release function. */
export function holdLeaveGuard(): () => void {
  start();
  const token = {};
  guards.add(token);
  if (guards.size === 1) window.addEventListener('beforeunload', onBeforeUnload);
  return () => {
    if (!guards.delete(token)) return;
    if (guards.size === 0) window.removeEventListener('beforeunload', onBeforeUnload);
  };
}

/** Splits a hash path into its path name and query: `/system/import?kind=order`. */
export function splitPath(path: string): { pathname: string; query: URLSearchParams } {
  const at = path.indexOf('?');
  const pathname = (at < 0 ? path : path.slice(0, at)).replace(/\/+$/, '') || '/';
  return { pathname, query: new URLSearchParams(at < 0 ? '' : path.slice(at + 1)) };
}

/**
 * Whether a link target is the current page: same path name (trailing slash ignored) and, when
 * the target names a query, the same query.
 */
export function isActivePath(target: string, path: string): boolean {
  const a = splitPath(target);
  const b = splitPath(path);
  if (a.pathname !== b.pathname) return false;
  return [...a.query.entries()].every(([k, v]) => b.query.get(k) === v);
}

/** Test hook: forget everything (vitest runs many renders in one module instance). */
export function resetRouterForTests(): void {
  guards.clear();
  allowOnce = null;
  asking = false;
  current = readHash();
  currentIndex = entryIndex();
  if (typeof window !== 'undefined') window.removeEventListener('beforeunload', onBeforeUnload);
}
