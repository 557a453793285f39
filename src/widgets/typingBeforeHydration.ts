/**
 * Issue 10: a prerendered page shows its form before its JavaScript runs, and a visitor may type into it then. React
 * resets a controlled field to its state when it hydrates it, which would wipe that text; so what is typed into the
 * prerendered fields is noted here until each field is hydrated and takes it back (TextInput).
 */
const typedBefore = new WeakMap<Element, string>();
let waiting = new Set<Element>();
let onInput: ((event: Event) => void) | null = null;

/** Starts noting what is typed into the fields already in `container` (call it just before hydrating). */
export function noteTypingBeforeHydration(container: HTMLElement): void {
  waiting = new Set(container.querySelectorAll('input, textarea'));
  if (waiting.size === 0) return;
  onInput = (event) => {
    const field = event.target;
    if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && waiting.has(field)) {
      typedBefore.set(field, field.value);
    }
  };
  container.addEventListener('input', onInput, true);
  // A field typed into before the listener existed (the script arrived after the typing).
  for (const field of waiting) {
    if ((field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) && field.value) typedBefore.set(field, field.value);
  }
}

/** What was typed into `field` before it was hydrated, once; undefined when nothing was. */
export function takeTypingBeforeHydration(field: Element | null): string | undefined {
  if (!field || !waiting.delete(field)) return undefined;
  const typed = typedBefore.get(field);
  typedBefore.delete(field);
  if (waiting.size === 0 && onInput) {
    field.closest('#root')?.removeEventListener('input', onInput, true);
    onInput = null;
  }
  return typed;
}
