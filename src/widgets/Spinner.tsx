import { ProgressBar } from 'react-aria-components';
import './Spinner.css';

/** SPEC §9: spinner max size 52. */
export const SPINNER_MAX_SIZE = 52;

export interface SpinnerProps {
  /** Diameter in px, capped at SPINNER_MAX_SIZE. */
  size?: number;
  className?: string;
}

/** An indeterminate progress indicator announced as 'Loading'. Inside a pending RAC Button it labels the button's busy state. */
export function Spinner({ size = 24, className }: SpinnerProps) {
  const diameter = Math.min(size, SPINNER_MAX_SIZE);
  return (
    <ProgressBar isIndeterminate aria-label="Loading" className={['lc-spinner', className].filter(Boolean).join(' ')}
      style={{ width: diameter, height: diameter }}>
      <svg viewBox="0 0 24 24" width={diameter} height={diameter} aria-hidden="true" focusable="false">
        <circle className="lc-spinner__track" cx="12" cy="12" r="10" fill="none" strokeWidth="3" />
        <circle className="lc-spinner__arc" cx="12" cy="12" r="10" fill="none" strokeWidth="3" strokeLinecap="round"
          strokeDasharray="44 63" />
      </svg>
    </ProgressBar>
  );
}
