// Compares a presented secret or proof with the expected one in constant time (the bridge's and the core socket's handshakes).
import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Hashing both sides first gives equal-length inputs for timingSafeEqual, so neither the comparison time nor an early
 * length check tells a prober anything about the stored secret.
 */
export function sameSecret(presented: string, stored: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(stored));
}
