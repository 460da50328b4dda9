// Session tokens after Lucia's post-deprecation design: "<id>.<secret>", both random; only the
// SHA-256 of the secret is stored, and it is compared in constant time.
import { sha256 } from '@oslojs/crypto/sha2'
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { decodeHex, encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'

function randomSecret() {
  const bytes = new Uint8Array(20)
  crypto.getRandomValues(bytes)
  return encodeBase32LowerCaseNoPadding(bytes) // 160 bits
}

export function hashSecret(secret: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(secret)))
}

export function generateSessionToken() {
  const id = randomSecret()
  const secret = randomSecret()
  return { id, secret, token: `${id}.${secret}`, secretHash: hashSecret(secret) }
}

export function parseSessionToken(token: string | undefined | null) {
  if (!token) return null
  const parts = token.split('.')
  if (parts.length !== 2 || !/^[a-z2-7]{32}$/.test(parts[0]) || !/^[a-z2-7]{32}$/.test(parts[1])) return null
  return { id: parts[0], secret: parts[1] }
}

export function secretMatches(secret: string, storedHash: string) {
  let stored: Uint8Array
  try {
    stored = decodeHex(storedHash)
  } catch {
    return false
  }
  const actual = sha256(new TextEncoder().encode(secret))
  return stored.length === actual.length && constantTimeEqual(actual, stored)
}

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000
/** Sliding expiry: refresh at most once an hour so reads stay reads. */
export const SESSION_REFRESH_INTERVAL_MS = 60 * 60 * 1000
