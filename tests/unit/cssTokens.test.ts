import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Issue 12 "drift": a custom property the app reads but nobody sets falls back silently (a colour goes transparent,
 * a focus ring disappears). Every `var(--lc-...)` in src/ must be set somewhere: in a stylesheet, or as an inline
 * style property by a component.
 */

const SOURCE = join(import.meta.dirname, '..', '..', 'src');
const sources = readdirSync(SOURCE, { recursive: true, withFileTypes: true })
  .filter((entry) => entry.isFile() && /\.(css|tsx?)$/.test(entry.name))
  .map((entry) => ({ name: entry.name, text: readFileSync(join(entry.parentPath, entry.name), 'utf8') }));

const namesIn = (pattern: RegExp) => new Set(sources.flatMap(({ text }) => [...text.matchAll(pattern)].map((match) => match[1]!)));

describe('the design tokens', () => {
  it('sets every custom property the app reads', () => {
    const set = new Set([...namesIn(/(--lc-[\w-]+)\s*:/g), ...namesIn(/['"](--lc-[\w-]+)['"]\s*:/g)]);
    const read = namesIn(/var\(\s*(--lc-[\w-]+)/g);
    expect(read.size).toBeGreaterThan(20);
    expect([...read].filter((name) => !set.has(name))).toEqual([]);
  });
});
