/**
 * Lets statecharts navigate without holding a router: the app registers its data router once at start-up.
 * SPEC §8: navigating before that throws 'Router not set'.
 */
export interface NavigateOptions {
  replace?: boolean;
  /** Keep the scroll position (e.g. when only the address query changes). */
  preventScrollReset?: boolean;
}

export interface Navigator {
  navigate(to: string, options?: NavigateOptions): unknown;
}

let router: Navigator | null = null;

export function setRouter(next: Navigator | null) {
  router = next;
}

export function navigate(to: string, options?: NavigateOptions) {
  if (!router) throw new Error('Router not set');
  void router.navigate(to, options);
}

/** Leaves the app for another address (a partner site, a stored file), replacing the current history entry. */
export function leaveFor(address: string) {
  window.location.replace(address);
}
