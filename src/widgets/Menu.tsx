import type { ReactNode } from 'react';
import {
  Menu as AriaMenu,
  MenuItem as AriaMenuItem,
  type MenuItemProps as AriaMenuItemProps,
  type MenuProps as AriaMenuProps,
  Popover,
  type PopoverProps,
  Separator,
  Text,
} from 'react-aria-components';
import { kitClass } from './kitClass.ts';
import './Menu.css';

/** Put the Button that opens the menu and the Menu inside it. */
export { MenuTrigger } from 'react-aria-components';

export interface MenuProps<T> extends AriaMenuProps<T> {
  /** Where the menu opens, beside its trigger (default 'bottom start'). */
  placement?: PopoverProps['placement'];
  /** What the menu says above its items (who it is about), set apart from them. */
  header?: ReactNode;
  /** Refines the look of the popover that holds the menu. */
  popoverClassName?: string;
}

/** A list of actions in a popover beside its trigger; arrow keys move between them, Escape closes it. */
export function Menu<T extends object>({ placement = 'bottom start', header, popoverClassName, ...props }: MenuProps<T>) {
  return (
    <Popover placement={placement} className={kitClass('lc-menu', popoverClassName)}>
      {header && (
        <>
          <div className="lc-menu__header">{header}</div>
          <Separator className="lc-menu__separator" />
        </>
      )}
      <AriaMenu {...props} className={kitClass('lc-menu__list', props.className)} />
    </Popover>
  );
}

export interface MenuItemProps<T> extends AriaMenuItemProps<T> {
  /** A second line in smaller, muted text (announced as the item's description). */
  description?: ReactNode;
}

export function MenuItem<T extends object>({ description, children, ...props }: MenuItemProps<T>) {
  const textValue = props.textValue ?? (typeof children === 'string' ? children : undefined);
  return (
    <AriaMenuItem {...props} textValue={textValue} className={kitClass('lc-menu__item', props.className)}>
      {description
        ? (
          <>
            <Text slot="label">{children as ReactNode}</Text>
            <Text slot="description" className="lc-menu__description">{description}</Text>
          </>
        )
        : children}
    </AriaMenuItem>
  );
}
