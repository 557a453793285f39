/**
 * Dev-time guard for the widget option checks of SPEC §5. The props types already forbid bad values; this catches
 * values that slip past the compiler (casts, data from the server, plain JavaScript callers).
 */
export function checkOption<T extends string>(widget: string, prop: string, value: T | undefined, allowed: readonly T[]): void {
  if (!import.meta.env.DEV || value === undefined || allowed.includes(value)) return;
  console.error(`${widget}: invalid ${prop} '${String(value)}'; expected one of ${allowed.map((option) => `'${option}'`).join(', ')}`);
}
