// Links that carry their own proof (a topic e-mail's unsubscribe link, a partner's stats link): ids
// joined by '.', then an HMAC-SHA-256 signature under a key derived from the deployment's
// INTEGRATIONS_KEY for one purpose only, so the deployment key itself never signs links and a token
// of one purpose is no token of another. Verified with WebCrypto's verify (constant time).

const ID = /^[a-z0-9]{1,64}$/
// 32 bytes in 43 base64url characters: the last one carries 4 bits and 2 unused ones. Only the
// canonical spelling (unused bits zero) is accepted, so one signature has exactly one token.
const CANONICAL_SIGNATURE = /^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$/

function base64url(bytes: ArrayBuffer) {
  return btoa(String.fromCharCode(...new Uint8Array(bytes)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '')
}

function fromBase64url(value: string) {
  const padded = value.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (value.length % 4)) % 4)
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0))
}

/** HMAC(INTEGRATIONS_KEY, purpose) as a signing key. */
async function purposeKey(integrationsKeyBase64: string, purpose: string) {
  const root = await crypto.subtle.importKey('raw', fromBase64url(integrationsKeyBase64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const derived = await crypto.subtle.sign('HMAC', root, new TextEncoder().encode(purpose))
  return crypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

/** `id1.id2….signature` for these ids (lower-case letters and digits, as the app's ids). */
export async function signClaims(integrationsKey: string, purpose: string, ids: string[]) {
  const payload = ids.join('.')
  const signature = await crypto.subtle.sign('HMAC', await purposeKey(integrationsKey, purpose), new TextEncoder().encode(payload))
  return `${payload}.${base64url(signature)}`
}

/** The ids of a genuine token with exactly `count` of them, else null (malformed, altered, another key or purpose). */
export async function verifyClaims(integrationsKey: string, purpose: string, token: string, count: number): Promise<string[] | null> {
  const parts = token.split('.')
  if (parts.length !== count + 1 || token.length > 100 * (count + 1)) return null
  const ids = parts.slice(0, count)
  const signature = parts[count]!
  if (!ids.every((id) => ID.test(id)) || !CANONICAL_SIGNATURE.test(signature)) return null
  const ok = await crypto.subtle.verify('HMAC', await purposeKey(integrationsKey, purpose), fromBase64url(signature), new TextEncoder().encode(ids.join('.')))
  return ok ? ids : null
}
