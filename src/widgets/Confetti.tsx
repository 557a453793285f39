import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { usePrefersReducedMotion } from './reducedMotion.ts';
import './Confetti.css';

/** SPEC §9: confetti lasts 2000 ms by default, with at most 150 particles. */
export const CONFETTI_DURATION_MS = 2000;
export const CONFETTI_MAX_PARTICLES = 150;

const COLOURS = ['#1d4ed8', '#15803d', '#f59e0b', '#db2777', '#7c3aed', '#0891b2'];

interface Particle {
  left: number;
  drift: number;
  rotation: number;
  delay: number;
  fall: number;
  colour: string;
  isRound: boolean;
}

function createParticles(count: number, duration: number): Particle[] {
  return Array.from({ length: count }, (_, index) => {
    // Each piece starts within the first 30% of the duration and lands before the end.
    const delay = Math.random() * duration * 0.3;
    return {
      left: Math.random() * 100,
      drift: (Math.random() - 0.5) * 30,
      rotation: (Math.random() - 0.5) * 1440,
      delay,
      fall: (duration - delay) * (0.7 + Math.random() * 0.3),
      colour: COLOURS[index % COLOURS.length],
      isRound: Math.random() < 0.3,
    };
  });
}

export interface ConfettiProps {
  duration?: number;
  particleCount?: number;
  /** Called once the duration is over (also under reduced motion, when nothing was drawn). */
  onComplete?: () => void;
}

/** A burst of falling paper over the page. Decorative: hidden from screen readers, absent under reduced motion. */
export function Confetti({ duration = CONFETTI_DURATION_MS, particleCount = CONFETTI_MAX_PARTICLES, onComplete }: ConfettiProps) {
  const prefersReducedMotion = usePrefersReducedMotion();
  const [particles] = useState(() => createParticles(Math.min(Math.max(0, particleCount), CONFETTI_MAX_PARTICLES), duration));
  const [isOver, setIsOver] = useState(false);
  const onCompleteRef = useRef(onComplete);
  useEffect(() => {
    onCompleteRef.current = onComplete;
  });

  useEffect(() => {
    const timer = setTimeout(() => {
      setIsOver(true);
      onCompleteRef.current?.();
    }, duration);
    return () => clearTimeout(timer);
  }, [duration]);

  if (prefersReducedMotion || isOver) return null;
  return (
    <div className="lc-confetti" aria-hidden="true">
      {particles.map((particle, index) => (
        <span key={index} className={particle.isRound ? 'lc-confetti__piece lc-confetti__piece--round' : 'lc-confetti__piece'}
          style={{
            left: `${particle.left}%`,
            background: particle.colour,
            animationDelay: `${particle.delay}ms`,
            animationDuration: `${particle.fall}ms`,
            '--lc-confetti-drift': `${particle.drift}vw`,
            '--lc-confetti-rotation': `${particle.rotation}deg`,
          } as CSSProperties} />
      ))}
    </div>
  );
}
