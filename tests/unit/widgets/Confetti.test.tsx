import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Confetti } from '../../../src/widgets/Confetti.tsx';

function preferReducedMotion(reduce: boolean) {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: reduce && query === '(prefers-reduced-motion: reduce)',
    media: query,
    addEventListener: () => {},
    removeEventListener: () => {},
  }));
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('Confetti', () => {
  it('throws at most 150 decorative pieces for 2000 ms, then calls onComplete', () => {
    preferReducedMotion(false);
    const onComplete = vi.fn();
    const { container } = render(<Confetti particleCount={500} onComplete={onComplete} />);
    const layer = container.querySelector('.lc-confetti');
    expect(layer).toHaveAttribute('aria-hidden', 'true');
    expect(layer?.children).toHaveLength(150);
    act(() => vi.advanceTimersByTime(1999));
    expect(onComplete).not.toHaveBeenCalled();
    act(() => vi.advanceTimersByTime(1));
    expect(onComplete).toHaveBeenCalledTimes(1);
    expect(container.querySelector('.lc-confetti')).toBeNull();
  });

  it('takes a smaller count and another duration', () => {
    preferReducedMotion(false);
    const onComplete = vi.fn();
    const { container } = render(<Confetti particleCount={20} duration={500} onComplete={onComplete} />);
    expect(container.querySelector('.lc-confetti')?.children).toHaveLength(20);
    act(() => vi.advanceTimersByTime(500));
    expect(onComplete).toHaveBeenCalledTimes(1);
  });

  it('draws nothing under prefers-reduced-motion, yet still completes', () => {
    preferReducedMotion(true);
    const onComplete = vi.fn();
    const { container } = render(<Confetti onComplete={onComplete} />);
    expect(container).toBeEmptyDOMElement();
    act(() => vi.advanceTimersByTime(2000));
    expect(onComplete).toHaveBeenCalledTimes(1);
  });
});
