import { Button, type ButtonProps, Link, type LinkProps } from 'react-aria-components';

/**
 * React Aria's button and link with no look of their own, for things the caller's class draws whole (a card, a
 * tile, an avatar): they still press by touch, mouse and keyboard alike and show focus only to keyboard users
 * (data-focus-visible). Anything that looks like a button is a Button or a LinkButton.
 */

export function PlainButton(props: ButtonProps) {
  return <Button {...props} />;
}

export function PlainLink(props: LinkProps) {
  return <Link {...props} />;
}
