import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from '@oslojs/encoding'
import { sha256 } from '@oslojs/crypto/sha2'

/** Random, unguessable identifier (120 bits, base32). */
export function newId(bytes = 15) {
  const buf = new Uint8Array(bytes)
  crypto.getRandomValues(buf)
  return encodeBase32LowerCaseNoPadding(buf)
}

export function sha256Hex(value: string) {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(value)))
}
