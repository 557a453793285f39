/**
 * Issue 10: a prerendered form can be sent before the app has hydrated it, and posted natively it would come back as
 * the same empty page. From the moment the app starts until the page is hydrated, a form sent is held
 * instead, and sent again once the page is alive (its fields keep what was typed: typingBeforeHydration.ts).
 */
let held: { form: HTMLFormElement; submitter: HTMLElement | null } | null = null;

function hold(event: SubmitEvent): void {
  event.preventDefault();
  held = { form: event.target as HTMLFormElement, submitter: event.submitter };
}

/** Starts holding the forms sent; the app's entry calls it before anything else. */
export function holdSubmitsUntilHydrated(): void {
  document.addEventListener('submit', hold, true);
}

/** Stops holding, and sends the form held last again, now to the app. */
export function releaseHeldSubmit(): void {
  document.removeEventListener('submit', hold, true);
  const { form, submitter } = held ?? {};
  held = null;
  if (!form?.isConnected) return;
  if (submitter instanceof HTMLButtonElement || submitter instanceof HTMLInputElement) form.requestSubmit(submitter);
  else form.requestSubmit();
}
