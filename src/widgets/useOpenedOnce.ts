import { useState } from 'react';

/**
 * True from the first time `isOpen` is: a drawer whose code is fetched when it is first opened is mounted then, and
 * stays mounted, so that it can animate its closing and open again at once.
 */
export function useOpenedOnce(isOpen: boolean): boolean {
  const [openedOnce, setOpenedOnce] = useState(isOpen);
  if (isOpen && !openedOnce) setOpenedOnce(true);
  return openedOnce;
}
