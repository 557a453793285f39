import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

/** A fresh 128-bit random token, URL-safe. Only its digest is ever stored. */
export function newToken(): string {
  return randomBytes(16).toString('base64url');
}

export function digest(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function digestsEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** Six random digits for an SMS code. */
export function newOtpCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}
