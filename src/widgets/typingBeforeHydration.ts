/**
 * Issue 10: a prerendered page shows its form before its JavaScript runs, and a visitor may type into it then. React
 * resets a controlled field to its state when it hydrates it, which would wipe that text; so what is typed into the
 * prerendered fields is noted here until each field is hydrated and takes it back (TextInput).
 */
type TextField = HTMLInputElement | HTMLTextAreaElement;

const typedBefore = new WeakMap<Element, string>();
let waiting = new Set<Element>();
let stopNoting = () => {};

/** Starts noting what is typed into the fields already in `container` (call it just before hydrating). */
export function noteTypingBeforeHydration(container: HTMLElement): void {
  const fields = container.querySelectorAll<TextField>('input, textarea');
  if (fields.length === 0) return;
  waiting = new Set(fields);
  const note = (field: TextField) => typedBefore.set(field, field.value);
  // What was typed before this script arrived, then what is typed until each field is hydrated.
  fields.forEach(note);
  const onInput = (event: Event) => {
    if (waiting.has(event.target as Element)) note(event.target as TextField);
  };
  container.addEventListener('input', onInput, true);
  stopNoting = () => container.removeEventListener('input', onInput, true);
}

/** What was typed into `field` before it was hydrated, once; undefined or empty when nothing was. */
export function takeTypingBeforeHydration(field: Element | null): string | undefined {
  if (!field || !waiting.delete(field)) return undefined;
  if (waiting.size === 0) stopNoting();
  const typed = typedBefore.get(field);
  typedBefore.delete(field);
  return typed;
}
