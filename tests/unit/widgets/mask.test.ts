import { describe, expect, it } from 'vitest';
import { applyMask, isMaskComplete, maskTemplate } from '../../../src/widgets/mask.ts';

describe('applyMask', () => {
  it('inserts literals around typed digits', () => {
    expect(applyMask('(999) 999-9999', '2125551212')).toBe('(212) 555-1212');
  });

  it('ends at the last filled slot so deleting never sticks on a literal', () => {
    expect(applyMask('(999) 999-9999', '212')).toBe('(212');
    expect(applyMask('(999) 999-9999', '(212) ')).toBe('(212');
    expect(applyMask('(999) 999-9999', '(')).toBe('');
  });

  it('accepts its own output and typed literals', () => {
    expect(applyMask('(999) 999-9999', '(212) 555-1212')).toBe('(212) 555-1212');
    expect(applyMask('(999) 999-9999', '(212) 555-12')).toBe('(212) 555-12');
  });

  it('9 takes digits only, a letters only, * letters or digits', () => {
    expect(applyMask('999', '1a2b3')).toBe('123');
    expect(applyMask('aaa', '1a2b3c')).toBe('abc');
    expect(applyMask('***', '-a_1!b')).toBe('a1b');
  });

  it('drops what does not fit', () => {
    expect(applyMask('99-99', '123456')).toBe('12-34');
  });

  it('treats ? as a marker, not a character', () => {
    expect(applyMask('99?-99', '1234')).toBe('12-34');
  });
});

describe('isMaskComplete', () => {
  it('needs every slot filled', () => {
    expect(isMaskComplete('(999) 999-9999', '(212) 555-1212')).toBe(true);
    expect(isMaskComplete('(999) 999-9999', '(212) 555-121')).toBe(false);
  });

  it('does not need the slots after ?', () => {
    expect(isMaskComplete('99?-99', '12')).toBe(true);
    expect(isMaskComplete('99?-99', '1')).toBe(false);
    expect(isMaskComplete('99?-99', '12-3')).toBe(true);
  });
});

describe('maskTemplate', () => {
  it('shows each slot as the slot character', () => {
    expect(maskTemplate('(999) 999-9999', '_')).toBe('(___) ___-____');
    expect(maskTemplate('a*?-99', '#')).toBe('##-##');
  });
});
