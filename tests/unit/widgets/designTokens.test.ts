import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Issue 12: a style that reads a design token nobody defines falls back silently, so the kit drifts apart. */

const SOURCE = join(import.meta.dirname, '../../../src');
const files = readdirSync(SOURCE, { recursive: true, encoding: 'utf8' });
const read = (extension: string) => files.filter((file) => file.endsWith(extension)).map((file) => readFileSync(join(SOURCE, file), 'utf8'));
const stylesheets = read('.css');
const components = read('.tsx');

const matchesOf = (texts: string[], pattern: RegExp) => new Set(texts.flatMap((text) => [...text.matchAll(pattern)].map((match) => match[1]!)));

describe('design tokens', () => {
  it('every token a stylesheet reads is defined in a stylesheet, or set by the component that draws it', () => {
    const used = matchesOf(stylesheets, /var\((--lc-[\w-]+)/g);
    const defined = new Set([
      ...matchesOf(stylesheets, /^\s*(--lc-[\w-]+)\s*:/gm),
      ...matchesOf(components, /['"](--lc-[\w-]+)['"]\s*:/g),
    ]);
    expect([...used].filter((token) => !defined.has(token))).toEqual([]);
  });
});
