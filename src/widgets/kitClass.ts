import { composeRenderProps } from 'react-aria-components';

/**
 * A kit component's class names: its own, then the caller's (a string, or React Aria's function of the render
 * props), the way the react-spectrum starters compose them. The states a screen styles are React Aria's data-*
 * attributes (data-selected, data-focus-visible, data-disabled...), never classes of their own.
 */
export function kitClass<R>(base: string, className: string | ((values: R & { defaultClassName: string | undefined }) => string) | undefined) {
  return composeRenderProps(className, (own) => (own ? `${base} ${own}` : base));
}
