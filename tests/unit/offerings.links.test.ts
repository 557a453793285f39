import { describe, expect, it } from 'vitest';
import { itemLink, telHref, withHttps } from '../../src/views/offerings/links.ts';

describe('key_value link rules (SPEC §2 Offering detail drawer)', () => {
  it('link: the value, with https:// in front when it has no scheme', () => {
    expect(itemLink({ key: 'link', value: 'www.meridian-health.example.com/find-care' })).toEqual({
      kind: 'link',
      href: 'https://www.meridian-health.example.com/find-care',
      text: 'www.meridian-health.example.com/find-care',
      opensNewTab: true,
    });
    expect(itemLink({ key: 'link', value: 'https://fitloop.example.com' })?.href).toBe('https://fitloop.example.com');
    expect(itemLink({ key: 'link', value: 'http://old.example.com' })?.href).toBe('http://old.example.com');
    expect(itemLink({ key: 'link', value: 'HTTPS://Loud.example.com' })?.href).toBe('HTTPS://Loud.example.com');
  });

  it('link: the external url wins over the value', () => {
    expect(
      itemLink({ key: 'link', value: 'Find a doctor', external_url: 'https://meridian.example.com/find' })?.href,
    ).toBe('https://meridian.example.com/find');
  });

  it('download: the external url, opened in a new tab; without one the row is plain', () => {
    expect(
      itemLink({ key: 'download', value: 'Summary of Benefits (PDF)', external_url: 'https://example.com/summary.pdf' }),
    ).toEqual({ kind: 'download', href: 'https://example.com/summary.pdf', text: 'Summary of Benefits (PDF)', opensNewTab: true });
    expect(itemLink({ key: 'download', value: 'Summary of Benefits (PDF)' })).toBeNull();
  });

  it('phone: tel: with only the digits and plus signs of the value, unless an external url is given', () => {
    expect(itemLink({ key: 'phone', value: '(800) 555-0142' })).toEqual({
      kind: 'phone',
      href: 'tel:8005550142',
      text: '(800) 555-0142',
      opensNewTab: false,
    });
    expect(itemLink({ key: 'phone', value: '+1 800.555.0199 ext. 4' })?.href).toBe('tel:+180055501994');
    expect(
      itemLink({ key: 'phone', value: 'Call us', external_url: 'tel:+18005550100' }),
    ).toEqual({ kind: 'phone', href: 'tel:+18005550100', text: 'Call us', opensNewTab: false });
  });

  it('email: mailto: with the address, unless an external url is given', () => {
    expect(itemLink({ key: 'email', value: 'members@meridian-health.example.com' })).toEqual({
      kind: 'email',
      href: 'mailto:members@meridian-health.example.com',
      text: 'members@meridian-health.example.com',
      opensNewTab: false,
    });
    expect(
      itemLink({ key: 'email', value: 'Write to us', external_url: 'https://example.com/contact' }),
    ).toEqual({ kind: 'email', href: 'https://example.com/contact', text: 'Write to us', opensNewTab: true });
  });

  it('any other key is a label and a value, even with an external url', () => {
    expect(itemLink({ key: 'Hours', value: 'Monday to Friday, 8am-8pm ET' })).toBeNull();
    expect(itemLink({ key: 'Phone', value: '(800) 555-0142' })).toBeNull();
    expect(itemLink({ key: 'Group number', value: 'ACM-40721', external_url: 'https://example.com' })).toBeNull();
    expect(itemLink({ value: 'no key at all' })).toBeNull();
  });
});

describe('address helpers', () => {
  it('withHttps trims and prefixes only what lacks a scheme', () => {
    expect(withHttps(' example.com ')).toBe('https://example.com');
    expect(withHttps('https://example.com')).toBe('https://example.com');
  });

  it('telHref keeps digits and plus only', () => {
    expect(telHref('+44 (0)20 7946 0958')).toBe('tel:+4402079460958');
  });
});
