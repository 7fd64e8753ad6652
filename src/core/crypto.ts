import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Encrypts and decrypts secrets at rest (Discord tokens) with AES-256-GCM. */
export interface SecretBox {
  seal(plaintext: string): string;
  /** Returns null for a value that was not sealed with this key or was tampered with. */
  open(sealed: string): string | null;
}

/** A SecretBox whose key is derived from SESSION_SECRET with HKDF-SHA256. */
export function createSecretBox(sessionSecret: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', sessionSecret, 'awesomebot', 'discord-token-encryption', 32));
  return {
    seal(plaintext) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}:${Buffer.concat([iv, cipher.getAuthTag(), ciphertext]).toString('base64url')}`;
    },
    open(sealed) {
      const [version, payload] = sealed.split(':');
      if (version !== VERSION || !payload) return null;
      const bytes = Buffer.from(payload, 'base64url');
      if (bytes.length < IV_BYTES + TAG_BYTES) return null;
      try {
        const decipher = createDecipheriv('aes-256-gcm', key, bytes.subarray(0, IV_BYTES));
        decipher.setAuthTag(bytes.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
        return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
