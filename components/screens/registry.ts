/**
 * Lazy screen loaders by `Screen.kind` (lib/routes.ts): each screen is its own chunk, loaded when
 * its route opens. A load that fails or takes longer than 120000 ms (spec §9) rejects with
 * `ScreenLoadError`; the shell's boundary then offers a retry, which calls `forgetScreen` so the
 * next render imports afresh.
 */
import { createElement, lazy, type ComponentType, type LazyExoticComponent, type ReactElement } from 'react';
import type { CustomScreenName, Match, Screen } from '@/lib/routes';
import { CUSTOM_SCREENS } from './custom-screens';

export const SCREEN_LOAD_TIMEOUT_MS = 120_000;

/** A screen chunk that could not be loaded (network, missing file after a deploy, time-out). */
export class ScreenLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ScreenLoadError';
  }
}

/** Whether an error means "the code did not arrive" rather than "the screen crashed". */
export function isLoadError(error: unknown): boolean {
  if (error instanceof ScreenLoadError) return true;
  const e = error as { name?: string; message?: string } | null;
  return (
    e?.name === 'ChunkLoadError' ||
    /loading (css )?chunk|failed to load chunk|dynamically imported module|importing a module script failed/i.test(e?.message ?? '')
  );
}

type ScreenModule = 'home' | 'list' | 'detail' | `custom:${CustomScreenName}`;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- each module has its own props; screenElement passes the right ones.
type AnyScreen = ComponentType<any>;

const IMPORTS: Record<'home' | 'list' | 'detail', () => Promise<{ default: AnyScreen }>> = {
  home: () => import('./home'),
  list: () => import('../resource/resource-list-screen'),
  detail: () => import('../resource/resource-detail-screen'),
};

const importOf = (screen: Screen): (() => Promise<{ default: AnyScreen }>) =>
  screen.kind === 'custom' ? CUSTOM_SCREENS[screen.name] : IMPORTS[screen.kind === 'new' ? 'detail' : screen.kind];

const moduleOf = (screen: Screen): ScreenModule =>
  screen.kind === 'new' ? 'detail' : screen.kind === 'custom' ? `custom:${screen.name}` : screen.kind;

function withTimeout<T>(load: () => Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ScreenLoadError(`画面の読み込みが ${ms / 1000} 秒以内に終わりませんでした。`)), ms);
    let started: Promise<T>;
    try {
      started = load();
    } catch (error) {
      started = Promise.reject(error);
    }
    started.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(isLoadError(error) || !(error instanceof Error) ? new ScreenLoadError(String((error as Error)?.message ?? error), { cause: error }) : error);
      },
    );
  });
}

const cache = new Map<ScreenModule, LazyExoticComponent<AnyScreen>>();

function lazyScreen(screen: Screen): LazyExoticComponent<AnyScreen> {
  const module = moduleOf(screen);
  let component = cache.get(module);
  if (!component) {
    component = lazy(() => withTimeout(importOf(screen), SCREEN_LOAD_TIMEOUT_MS));
    cache.set(module, component);
  }
  return component;
}

/** Drops a failed screen so the next render imports it again. */
export function forgetScreen(screen: Screen): void {
  cache.delete(moduleOf(screen));
}

/** Starts loading a screen's chunk ahead of time (e.g. on hover); failures are left to the real load. */
export function preloadScreen(screen: Screen): void {
  importOf(screen)().catch(() => undefined);
}

/**
 * The element of a matched route's screen, with the props its kind takes:
 * home/custom `{ match }`; list `{ resource, params }`; new/detail `{ resource, params, mode, idParam, parent }`.
 */
export function screenElement(match: Match): ReactElement {
  const screen = match.route.screen;
  const Screen = lazyScreen(screen);
  switch (screen.kind) {
    case 'home':
    case 'custom':
      return createElement(Screen, { match });
    case 'list':
      return createElement(Screen, { resource: screen.resource, params: match.params });
    case 'new':
    case 'detail':
      return createElement(Screen, { resource: screen.resource, params: match.params, mode: screen.kind === 'new' ? 'new' : 'edit', idParam: screen.idParam, parent: screen.parent });
  }
}
