import { ProgressBar as AriaProgressBar, Label } from 'react-aria-components';
import './ProgressBar.css';

export interface ProgressBarProps {
  /** Names the bar for everyone; hide it visually with isLabelHidden when the screen already says it. */
  label: string;
  isLabelHidden?: boolean;
  /** 0 to 100 percent (SPEC §9); ignored when indeterminate. */
  value?: number;
  isIndeterminate?: boolean;
  /** Text read and shown for the value instead of the percentage, e.g. 'Step 2 of 3'. */
  valueLabel?: string;
  className?: string;
}

export function ProgressBar({ label, isLabelHidden = false, value = 0, isIndeterminate = false, valueLabel, className }: ProgressBarProps) {
  const percent = Math.min(100, Math.max(0, value));
  return (
    <AriaProgressBar value={percent} minValue={0} maxValue={100} isIndeterminate={isIndeterminate} valueLabel={valueLabel}
      className={['lc-progress', className].filter(Boolean).join(' ')}>
      {({ valueText }) => (
        <>
          <div className={isLabelHidden ? 'lc-visually-hidden' : 'lc-progress__header'}>
            <Label className="lc-progress__label">{label}</Label>
            {!isIndeterminate && <span className="lc-progress__value">{valueText}</span>}
          </div>
          <div className="lc-progress__track">
            <div className={isIndeterminate ? 'lc-progress__fill lc-progress__fill--indeterminate' : 'lc-progress__fill'}
              style={isIndeterminate ? undefined : { width: `${percent}%` }} />
          </div>
        </>
      )}
    </AriaProgressBar>
  );
}
