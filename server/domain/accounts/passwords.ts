import { hash, verify } from '@node-rs/argon2';
import { newToken } from '../shared/tokens.ts';

/** argon2id with the library's defaults (19 MiB, 2 passes): @node-rs/argon2 uses argon2id unless told otherwise. */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password);
  } catch {
    // A malformed stored hash matches nothing.
    return false;
  }
}

let unknownAccountHash: Promise<string> | null = null;

/**
 * Spends the same time as a real password check when the e-mail matches no account, so that the time of a
 * failed sign-in does not tell whether an address is registered. Always false.
 */
export async function verifyPasswordOfUnknownAccount(password: string): Promise<false> {
  unknownAccountHash ??= hash(newToken());
  await verifyPassword(await unknownAccountHash, password);
  return false;
}
