// The signature on every webhook delivery (docs/webhooks.md):
//   Coursefront-Signature: t={unix seconds},v1={hex HMAC-SHA256(secret, "{t}.{raw body}")}
// The timestamp is signed with the body so a captured request cannot be replayed later than the
// receiver's tolerance. `verifyWebhookSignature` is what a receiver runs (the docs show the same in
// Node); the tests use it to check what the worker sent.
import { encodeHexLowerCase } from '@oslojs/encoding'

export const SIGNATURE_HEADER = 'Coursefront-Signature'
/** How old a signed request a receiver should accept (the docs recommend the same). */
export const SIGNATURE_TOLERANCE_SECONDS = 300

const encoder = new TextEncoder()

async function hmacHex(secret: string, message: string) {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message))))
}

export async function signWebhookBody(secret: string, body: string, timestamp: number) {
  return `t=${timestamp},v1=${await hmacHex(secret, `${timestamp}.${body}`)}`
}

/** Constant-time comparison of two strings of hex digits. */
function timingSafeEqual(a: string, b: string) {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i)
  return diff === 0
}

/** True when `header` signs `body` with `secret` and its timestamp is within the tolerance of `now` (seconds). */
export async function verifyWebhookSignature(secret: string, header: string | null, body: string, now = Math.floor(Date.now() / 1000), tolerance = SIGNATURE_TOLERANCE_SECONDS) {
  if (!header) return false
  const parts = new Map<string, string[]>()
  for (const item of header.split(',')) {
    const [k, v] = item.split('=', 2).map((s) => s?.trim())
    if (k && v) parts.set(k, [...(parts.get(k) ?? []), v])
  }
  const t = Number(parts.get('t')?.[0])
  if (!Number.isInteger(t) || Math.abs(now - t) > tolerance) return false
  const expected = await hmacHex(secret, `${t}.${body}`)
  // Several v1 values may be present (e.g. while a secret is rotated): any match is enough.
  return (parts.get('v1') ?? []).some((v) => timingSafeEqual(v, expected))
}
