import { type ReactNode, useEffect, useRef, useState } from 'react';
import type { PressEvent } from 'react-aria-components';
import { usePrefersReducedMotion } from './reducedMotion.ts';

/** SPEC §9 "Ripple: about 401 ms". */
export const RIPPLE_DURATION_MS = 401;

interface Ripple {
  id: number;
  x: number;
  y: number;
  size: number;
}

/**
 * A circle grows from where the control was pressed (its centre for a key press) and fades. Nothing runs when the
 * user asked for less motion, or while `disabled`. The host passes its own `onPressStart`, which is always called, and
 * must be `position: relative; overflow: hidden`.
 */
export function useRipple({ onPressStart: hostOnPressStart, disabled = false }: {
  onPressStart?: (event: PressEvent) => void;
  disabled?: boolean;
}): { onPressStart: (event: PressEvent) => void; ripples: ReactNode } {
  const reducedMotion = usePrefersReducedMotion();
  const [ripples, setRipples] = useState<Ripple[]>([]);
  const nextId = useRef(0);
  const fadeTimers = useRef(new Set<ReturnType<typeof setTimeout>>());
  // A control removed while it ripples (e.g. a button that navigates away) leaves no timer to update it.
  useEffect(() => {
    const timers = fadeTimers.current;
    return () => timers.forEach(clearTimeout);
  }, []);

  const ripple = (event: PressEvent) => {
    if (disabled || reducedMotion || !(event.target instanceof Element)) return;
    const { width, height } = event.target.getBoundingClientRect();
    const fromKeyboard = event.pointerType === 'keyboard' || event.pointerType === 'virtual';
    const x = fromKeyboard ? width / 2 : event.x;
    const y = fromKeyboard ? height / 2 : event.y;
    // Large enough to reach the farthest corner.
    const size = 2 * Math.hypot(Math.max(x, width - x), Math.max(y, height - y));
    const id = nextId.current++;
    setRipples((current) => [...current, { id, x, y, size }]);
    const timer = setTimeout(() => {
      fadeTimers.current.delete(timer);
      setRipples((current) => current.filter((ripple) => ripple.id !== id));
    }, RIPPLE_DURATION_MS);
    fadeTimers.current.add(timer);
  };

  return {
    onPressStart: (event) => {
      ripple(event);
      hostOnPressStart?.(event);
    },
    ripples: ripples.map((ripple) => (
      <span key={ripple.id} aria-hidden="true" className="lc-ripple" data-testid="ripple"
        style={{
          left: ripple.x - ripple.size / 2,
          top: ripple.y - ripple.size / 2,
          width: ripple.size,
          height: ripple.size,
          animationDuration: `${RIPPLE_DURATION_MS}ms`,
        }} />
    )),
  };
}
