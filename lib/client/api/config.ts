/**
 * Runtime configuration: `config.json` next to index.html (DESIGN §4), read once at start-up.
 */
import { DEFAULT_CONFIG, type RuntimeConfig } from '../../protocol';

let current: RuntimeConfig = DEFAULT_CONFIG;

/** Base path the page is served under: '' or '/dev'. Links and config keep it. */
export function basePath(): string {
  if (typeof window === 'undefined') return '';
  return window.location.pathname.startsWith('/dev/') || window.location.pathname === '/dev' ? '/dev' : '';
}

export async function loadConfig(): Promise<RuntimeConfig> {
  try {
    const res = await fetch(`${basePath()}/config.json`, { cache: 'no-store' });
    if (res.ok) current = { ...DEFAULT_CONFIG, ...((await res.json()) as Partial<RuntimeConfig>) };
  } catch {
    // Static hosting without config.json: the defaults apply.
  }
  return current;
}

export const getConfig = (): RuntimeConfig => current;
export const setConfig = (config: RuntimeConfig): void => {
  current = config;
};
