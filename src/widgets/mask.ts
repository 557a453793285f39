/**
 * Input masks of SPEC §5: '9' is a digit, 'a' a letter, '*' a letter or digit, '?' makes the rest optional; any other
 * character is a literal that is inserted for the user. Pure functions, used by TextInput and PhoneInput.
 *
 * Written here rather than taken from a mask library: the spec's mask alphabet and its '?' and slot-character rules are
 * the PrimeVue InputMask dialect, which no React mask library speaks, and the whole dialect is these few functions.
 */

type MaskToken =
  | { kind: 'slot'; accepts: RegExp; isOptional: boolean }
  | { kind: 'literal'; char: string; isOptional: boolean };

const SLOT_PATTERNS: Readonly<Record<string, RegExp>> = { '9': /^[0-9]$/, a: /^[A-Za-z]$/, '*': /^[A-Za-z0-9]$/ };
const OPTIONAL_MARKER = '?';

function tokenize(mask: string): MaskToken[] {
  const tokens: MaskToken[] = [];
  let isOptional = false;
  for (const char of mask) {
    if (char === OPTIONAL_MARKER) {
      isOptional = true;
    } else if (char in SLOT_PATTERNS) {
      tokens.push({ kind: 'slot', accepts: SLOT_PATTERNS[char], isOptional });
    } else {
      tokens.push({ kind: 'literal', char, isOptional });
    }
  }
  return tokens;
}

interface FilledMask {
  text: string;
  filledSlots: number;
}

/**
 * Fits what the user typed or pasted into the mask: characters a slot does not accept are dropped, literals are
 * inserted (a typed literal that matches is consumed), and the text ends at the last filled slot, so deleting a
 * character never gets stuck behind a re-inserted literal.
 */
function fill(mask: string, input: string): FilledMask {
  const tokens = tokenize(mask);
  let text = '';
  let committedLength = 0;
  let filledSlots = 0;
  let position = 0;
  for (const char of input) {
    let consumedAsLiteral = false;
    while (position < tokens.length) {
      const token = tokens[position];
      if (token.kind === 'slot') break;
      text += token.char;
      position += 1;
      if (token.char === char) {
        consumedAsLiteral = true;
        break;
      }
    }
    if (consumedAsLiteral) continue;
    if (position >= tokens.length) break;
    const slot = tokens[position];
    if (slot.kind === 'slot' && slot.accepts.test(char)) {
      text += char;
      position += 1;
      filledSlots += 1;
      committedLength = text.length;
    }
  }
  return { text: text.slice(0, committedLength), filledSlots };
}

export function applyMask(mask: string, input: string): string {
  return fill(mask, input).text;
}

/** True when every slot before the optional marker is filled. */
export function isMaskComplete(mask: string, value: string): boolean {
  const requiredSlots = tokenize(mask).filter((token) => token.kind === 'slot' && !token.isOptional).length;
  return fill(mask, value).filledSlots >= requiredSlots;
}

/** The mask as the user should read it, each slot shown as slotChar: '(999) 999-9999' -> '(___) ___-____'. */
export function maskTemplate(mask: string, slotChar: string): string {
  return tokenize(mask).map((token) => (token.kind === 'slot' ? slotChar : token.char)).join('');
}
