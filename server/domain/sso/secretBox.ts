import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Seals the SSO client secrets kept in the database: AES-256-GCM with a random 96-bit IV, and the company's id as
 * associated data, so a sealed secret copied onto another company's row does not open. Stored as
 * `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export interface SecretBox {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

const VERSION = 'v1';

/**
 * The key of SSO_SECRET_KEY (64 hex digits or base64 of 32 bytes). Without one (never in production: config.ts
 * refuses to start) a fixed development key is derived: demo and test secrets are sealed, but not protected.
 */
export function ssoKeyFrom(configured: string | undefined): Buffer {
  if (configured === undefined) return createHash('sha256').update('life-concierge development SSO key (not for production)').digest();
  const key = /^[0-9a-fA-F]{64}$/.test(configured) ? Buffer.from(configured, 'hex') : Buffer.from(configured, 'base64');
  if (key.length !== 32) throw new Error('SSO_SECRET_KEY must be 32 bytes');
  return key;
}

export function createSecretBox(key: Buffer): SecretBox {
  return {
    seal(plaintext, context) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(context));
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
    },
    open(sealed, context) {
      const [version, iv, tag, ciphertext] = sealed.split('.');
      if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) throw new Error('Unknown sealed secret format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
