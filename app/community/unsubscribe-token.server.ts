// The unsubscribe link of a topic e-mail (issue 22 item 6: works without logging in): the school,
// the student and the topic, signed with HMAC-SHA-256 under a key derived from the deployment's
// INTEGRATIONS_KEY for this purpose only. Checked with WebCrypto's verify (constant time); a token
// of another school is refused by the route (the school comes from the host, ADR 002).
const PURPOSE = 'coursefront:community-unsubscribe:v1'

export type UnsubscribeClaims = { tenantId: string; userId: string; topicId: string }

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

/** HMAC key for this purpose: HMAC(INTEGRATIONS_KEY, purpose), so the deployment key itself never signs links. */
async function purposeKey(integrationsKeyBase64: string) {
  const root = await crypto.subtle.importKey('raw', fromBase64url(integrationsKeyBase64.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  const derived = await crypto.subtle.sign('HMAC', root, new TextEncoder().encode(PURPOSE))
  return crypto.subtle.importKey('raw', derived, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
}

export async function signUnsubscribeToken(integrationsKey: string, claims: UnsubscribeClaims) {
  const payload = `${claims.tenantId}.${claims.userId}.${claims.topicId}`
  const signature = await crypto.subtle.sign('HMAC', await purposeKey(integrationsKey), new TextEncoder().encode(payload))
  return `${payload}.${base64url(signature)}`
}

/** The claims of a genuine token, else null (malformed, altered or signed with another key). */
export async function verifyUnsubscribeToken(integrationsKey: string, token: string): Promise<UnsubscribeClaims | null> {
  const parts = token.split('.')
  if (parts.length !== 4 || token.length > 400) return null
  const [tenantId, userId, topicId, signature] = parts as [string, string, string, string]
  if (![tenantId, userId, topicId].every((id) => ID.test(id)) || !CANONICAL_SIGNATURE.test(signature)) return null
  const ok = await crypto.subtle.verify('HMAC', await purposeKey(integrationsKey), fromBase64url(signature), new TextEncoder().encode(`${tenantId}.${userId}.${topicId}`))
  return ok ? { tenantId, userId, topicId } : null
}
