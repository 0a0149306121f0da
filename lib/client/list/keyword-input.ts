/**
 * Japanese input rule (DESIGN §4): a keyword search fires on Enter, but never on the Enter that
 * confirms an IME conversion. Browsers mark that Enter differently (Chrome: `isComposing`,
 * Safari: keyCode 229 after `compositionend`), so all three signals are checked.
 */
import { useCallback, useMemo, useRef } from 'react';
import type { CompositionEvent, KeyboardEvent } from 'react';

/** The parts of a keydown event the rule reads. */
export interface KeyLike {
  key: string;
  keyCode?: number;
  nativeEvent?: { isComposing?: boolean; keyCode?: number };
  isComposing?: boolean;
}

/** Whether a keydown belongs to an open IME composition. */
export function isImeKeyEvent(event: KeyLike, composing = false): boolean {
  return (
    composing ||
    event.isComposing === true ||
    event.nativeEvent?.isComposing === true ||
    event.keyCode === 229 ||
    event.nativeEvent?.keyCode === 229
  );
}

/**
 * Whether a keydown should submit: Enter outside any IME composition.
 * @example isSubmitEnter({ key: 'Enter', keyCode: 229 }) // false (the IME's confirming Enter)
 */
export function isSubmitEnter(event: KeyLike, composing = false): boolean {
  return event.key === 'Enter' && !isImeKeyEvent(event, composing);
}

export interface ImeSafeEnterHandlers<E extends HTMLElement> {
  onKeyDown: (event: KeyboardEvent<E>) => void;
  onCompositionStart: (event: CompositionEvent<E>) => void;
  onCompositionEnd: (event: CompositionEvent<E>) => void;
}

/**
 * Handlers to spread on an input so that Enter calls `onEnter` except while an IME composition is open.
 * @example <input {...useImeSafeEnter(() => list.setKeyword(draft))} />
 */
export function useImeSafeEnter<E extends HTMLElement = HTMLInputElement>(onEnter: () => void): ImeSafeEnterHandlers<E> {
  const composing = useRef(false);
  const latest = useRef(onEnter);
  latest.current = onEnter;
  const onKeyDown = useCallback((event: KeyboardEvent<E>) => {
    if (!isSubmitEnter(event, composing.current)) return;
    event.preventDefault();
    latest.current();
  }, []);
  const onCompositionStart = useCallback(() => {
    composing.current = true;
  }, []);
  const onCompositionEnd = useCallback(() => {
    composing.current = false;
  }, []);
  return useMemo(() => ({ onKeyDown, onCompositionStart, onCompositionEnd }), [onKeyDown, onCompositionStart, onCompositionEnd]);
}
