import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { isSubmitEnter, useImeSafeEnter } from '@/lib/client/list/keyword-input';

function Box({ onEnter }: { onEnter: () => void }) {
  const handlers = useImeSafeEnter(onEnter);
  return <input aria-label="キーワード" {...handlers} />;
}

describe('IME rule: Enter searches, but never while a composition is open', () => {
  it('pure rule', () => {
    expect(isSubmitEnter({ key: 'Enter', keyCode: 13 })).toBe(true);
    expect(isSubmitEnter({ key: 'Enter', keyCode: 229 })).toBe(false);
    expect(isSubmitEnter({ key: 'Enter', nativeEvent: { isComposing: true } })).toBe(false);
    expect(isSubmitEnter({ key: 'Enter' }, true)).toBe(false);
    expect(isSubmitEnter({ key: 'a' })).toBe(false);
  });

  it('fires on a plain Enter', () => {
    const onEnter = vi.fn();
    render(<Box onEnter={onEnter} />);
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'キーワード' }), { key: 'Enter', keyCode: 13 });
    expect(onEnter).toHaveBeenCalledTimes(1);
  });

  it('does not fire on the Enter that confirms a conversion (isComposing)', () => {
    const onEnter = vi.fn();
    render(<Box onEnter={onEnter} />);
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Enter', keyCode: 13, isComposing: true });
    expect(onEnter).not.toHaveBeenCalled();
  });

  it('does not fire on keyCode 229 (Safari after compositionend)', () => {
    const onEnter = vi.fn();
    render(<Box onEnter={onEnter} />);
    fireEvent.keyDown(screen.getByRole('textbox'), { key: 'Enter', keyCode: 229 });
    expect(onEnter).not.toHaveBeenCalled();
  });

  it('does not fire between compositionstart and compositionend, and fires after', () => {
    const onEnter = vi.fn();
    render(<Box onEnter={onEnter} />);
    const input = screen.getByRole('textbox');
    fireEvent.compositionStart(input);
    fireEvent.keyDown(input, { key: 'Enter', keyCode: 13 });
    expect(onEnter).not.toHaveBeenCalled();
    fireEvent.compositionEnd(input);
    fireEvent.keyDown(input, { key: 'Enter', keyCode: 13 });
    expect(onEnter).toHaveBeenCalledTimes(1);
  });
});
