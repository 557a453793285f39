import type { ReactNode } from 'react';
import { composeRenderProps, Switch as AriaSwitch, type SwitchProps as AriaSwitchProps } from 'react-aria-components';
import { kitClass } from './kitClass.ts';
import './Switch.css';

export interface SwitchProps extends AriaSwitchProps {
  children: ReactNode | AriaSwitchProps['children'];
}

/** An on/off setting that applies at once (for a choice sent with a form, use Checkbox). */
export function Switch({ children, ...props }: SwitchProps) {
  return (
    <AriaSwitch {...props} className={kitClass('lc-switch', props.className)}>
      {composeRenderProps(children, (label) => (
        <>
          <span className="lc-switch__track" aria-hidden="true"><span className="lc-switch__thumb" /></span>
          {label}
        </>
      ))}
    </AriaSwitch>
  );
}
