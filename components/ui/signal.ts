/**
 * A change signal for module-level stores read with `useSyncExternalStore`.
 * @example const changed = createSignal(); useSyncExternalStore(changed.subscribe, snapshot)
 */
export function createSignal(): { emit: () => void; subscribe: (listener: () => void) => () => void } {
  const listeners = new Set<() => void>();
  return {
    emit: () => listeners.forEach((l) => l()),
    subscribe: (listener) => {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
}
