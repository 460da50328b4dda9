// Credentials of a school's integrations (payment, invoicing, mailing) at rest: AES-256-GCM with
// a platform key (a Worker secret, base64 of 32 bytes), a fresh 96-bit IV per value, and the
// tenant id and purpose as additional data, so a stored value decrypts only for the school and
// field it was written for. Stored as `v1.{iv}.{ciphertext}` (base64url); the version allows
// rotating the key later.
import { decodeBase64, decodeBase64urlIgnorePadding, encodeBase64urlNoPadding } from '@oslojs/encoding'

const VERSION = 'v1'
const keys = new Map<string, CryptoKey>()
/** A copy on a plain ArrayBuffer (Web Crypto's BufferSource type). */
const bytes = (view: Uint8Array) => new Uint8Array(view)

async function importKey(keyBase64: string) {
  let key = keys.get(keyBase64)
  if (!key) {
    const raw = decodeBase64(keyBase64)
    if (raw.length !== 32) throw new Error('The integrations key must be 32 bytes (base64).')
    key = await crypto.subtle.importKey('raw', bytes(raw), 'AES-GCM', false, ['encrypt', 'decrypt'])
    keys.set(keyBase64, key)
  }
  return key
}

const additionalData = (tenantId: string, purpose: string) => new TextEncoder().encode(`coursefront:${tenantId}:${purpose}`)

export async function sealSecret(keyBase64: string, tenantId: string, purpose: string, plaintext: string) {
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const sealed = await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(tenantId, purpose) }, await importKey(keyBase64), new TextEncoder().encode(plaintext))
  return `${VERSION}.${encodeBase64urlNoPadding(iv)}.${encodeBase64urlNoPadding(new Uint8Array(sealed))}`
}

/** The plaintext, or null when the value was not sealed with this key for this tenant and purpose (or was altered). */
export async function openSecret(keyBase64: string, tenantId: string, purpose: string, sealed: string): Promise<string | null> {
  const [version, iv, data] = sealed.split('.')
  if (version !== VERSION || !iv || !data) return null
  try {
    const plain = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv: bytes(decodeBase64urlIgnorePadding(iv)), additionalData: additionalData(tenantId, purpose) },
      await importKey(keyBase64),
      bytes(decodeBase64urlIgnorePadding(data)),
    )
    return new TextDecoder().decode(plain)
  } catch {
    return null
  }
}

/** What the owner sees of a stored secret again: never more than its last 4 characters. */
export function maskSecret(plaintext: string) {
  return plaintext.length <= 4 ? '••••' : `••••${plaintext.slice(-4)}`
}
