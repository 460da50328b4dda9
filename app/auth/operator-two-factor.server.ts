// The operators' second factor (issue 27 §6): TOTP (RFC 6238: 30-second steps, 6 digits, SHA-1 —
// what every authenticator app reads from an otpauth:// URI) through @oslojs/otp, and ten one-time
// recovery codes stored as SHA-256 hashes. The key is sealed at rest with the platform key, like
// integration credentials, so a database dump alone does not yield codes.
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { decodeBase64, encodeBase32UpperCaseNoPadding, encodeBase64 } from '@oslojs/encoding'
import { createTOTPKeyURI, generateHOTP } from '@oslojs/otp'
import { sealSecret, openSecret } from '#app/utils/secret-box.server.ts'
import { sha256Hex } from '#app/utils/ids.server.ts'

export const TOTP_PERIOD_SECONDS = 30
export const TOTP_DIGITS = 6
const SEAL_SCOPE = 'platform'
const SEAL_PURPOSE = 'operator-totp'
export const RECOVERY_CODE_COUNT = 10

export function newTotpKey(): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(20))
}

export const sealTotpKey = (platformKey: string, key: Uint8Array) => sealSecret(platformKey, SEAL_SCOPE, SEAL_PURPOSE, encodeBase64(key))

export async function openTotpKey(platformKey: string, sealed: string | null): Promise<Uint8Array | null> {
  if (!sealed) return null
  const opened = await openSecret(platformKey, SEAL_SCOPE, SEAL_PURPOSE, sealed)
  return opened ? decodeBase64(opened) : null
}

/** The key as people type it into an app: base32, in groups of four. */
export const formatTotpKey = (key: Uint8Array) => encodeBase32UpperCaseNoPadding(key).replace(/(.{4})(?=.)/g, '$1 ')

export const totpKeyUri = (email: string, key: Uint8Array) => createTOTPKeyURI('Coursefront', email, key, TOTP_PERIOD_SECONDS, TOTP_DIGITS)

export const totpStepAt = (nowMs: number) => Math.floor(nowMs / 1000 / TOTP_PERIOD_SECONDS)

/**
 * The step whose code `code` is, within one step of now either side (clock drift), or null. The
 * caller still has to claim the step (claimTotpStep) so a code works only once.
 */
export function matchTotpStep(key: Uint8Array, code: string, nowMs = Date.now()): number | null {
  if (!/^\d{6}$/.test(code)) return null
  const given = new TextEncoder().encode(code)
  const now = totpStepAt(nowMs)
  let matched: number | null = null
  // Every candidate is compared (no early return), in constant time each.
  for (const step of [now - 1, now, now + 1]) {
    const expected = new TextEncoder().encode(generateHOTP(key, BigInt(step), TOTP_DIGITS))
    if (constantTimeEqual(expected, given)) matched = step
  }
  return matched
}

/** Ten codes like `k7f2m-9qxhd`: 50 bits each, shown once. */
export function newRecoveryCodes(): string[] {
  // 32 symbols (no i, l, o, 1): five bits a character, no modulo bias.
  const alphabet = 'abcdefghjkmnpqrstuvwxyz023456789'
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const bytes = crypto.getRandomValues(new Uint8Array(10))
    const chars = [...bytes].map((b) => alphabet[b & 31]).join('')
    return `${chars.slice(0, 5)}-${chars.slice(5)}`
  })
}

/** What is stored: the hash of the code as typed, ignoring case, spaces and dashes. */
export const recoveryCodeHash = (code: string) => sha256Hex(code.toLowerCase().replace(/[\s-]/g, ''))
