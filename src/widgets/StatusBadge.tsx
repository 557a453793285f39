import type { ReactNode } from 'react';
import './StatusBadge.css';

/** What a status means to the reader, and so its colour: the same meaning is the same colour on every screen. */
export const STATUS_TONES = ['neutral', 'info', 'warning', 'success', 'danger'] as const;
export type StatusTone = (typeof STATUS_TONES)[number];

/**
 * A status as a coloured pill (a request's In Queue / In Progress / Completed, an account's Active / Invited). The
 * screen maps its statuses to tones once; the colour itself is never a screen's choice. The text says the status,
 * so the colour is never the only sign of it.
 */
export function StatusBadge({ tone, children, className }: { tone: StatusTone; children: ReactNode; className?: string }) {
  return (
    <span className={className ? `lc-status-badge ${className}` : 'lc-status-badge'} data-tone={tone}>
      {children}
    </span>
  );
}
