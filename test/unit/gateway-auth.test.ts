import { describe, expect, it } from 'vitest';
import { hashToken, newToken, sameSecret } from '../../services/gateway/src/auth.js';

describe('sameSecret (every credential the gateway checks)', () => {
  it('accepts the credential whose hash is stored and nothing else', () => {
    const { token, hash } = newToken();
    expect(sameSecret(token, hash)).toBe(true);
    expect(sameSecret(`${token}x`, hash)).toBe(false);
    expect(sameSecret(token.slice(1), hash)).toBe(false);
    expect(sameSecret('', hash)).toBe(false);
    expect(sameSecret(null, hash)).toBe(false);
  });

  it('treats a configured key as its hash, so keys of any length compare in constant time', () => {
    const writeKey = 'a fairly long FAQ write key with spaces';
    expect(sameSecret(writeKey, hashToken(writeKey))).toBe(true);
    expect(sameSecret('short', hashToken(writeKey))).toBe(false);
    // An unset key hashes to nothing a presented credential can match.
    expect(sameSecret('anything', '')).toBe(false);
  });
});
