// HMAC-SHA256 signatures of private-file URLs (format: app/media/files-contract.ts). Only the media
// worker holds FILE_URL_SIGNING_KEY; the app asks it to sign after checking access.
import { signedFileCanonical, type FileDisposition } from '#app/media/files-contract.ts'

const encoder = new TextEncoder()
const keys = new Map<string, Promise<CryptoKey>>()

function hmacKey(secret: string) {
  // A missing or toy key would make every URL forgeable: refuse to work rather than sign weakly.
  if (typeof secret !== 'string' || secret.length < 32) throw new Error('FILE_URL_SIGNING_KEY is missing or shorter than 32 characters')
  let key = keys.get(secret)
  if (!key) {
    key = crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify'])
    keys.set(secret, key)
  }
  return key
}

const toHex = (bytes: ArrayBuffer) => Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, '0')).join('')

function fromHex(hex: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[0-9a-f]{64}$/.test(hex)) return null
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

export async function signFileUrl(secret: string, key: string, expires: number, disposition: FileDisposition) {
  return toHex(await crypto.subtle.sign('HMAC', await hmacKey(secret), encoder.encode(signedFileCanonical(key, expires, disposition))))
}

/** crypto.subtle.verify compares in constant time; a malformed signature is simply false. */
export async function verifyFileUrl(secret: string, key: string, expires: number, disposition: FileDisposition, sig: string) {
  const bytes = fromHex(sig)
  if (!bytes) return false
  return crypto.subtle.verify('HMAC', await hmacKey(secret), bytes, encoder.encode(signedFileCanonical(key, expires, disposition)))
}

/** The URL's path and query for a key (the origin is added by the caller). */
export async function signedFilePath(secret: string, key: string, expires: number, disposition: FileDisposition) {
  const sig = await signFileUrl(secret, key, expires, disposition)
  return `/private/${key}?${new URLSearchParams({ disposition, expires: String(expires), sig })}`
}
