// Tpay's notification signature (docs-api.tpay.com/webhooks): every notification carries
// `X-JWS-Signature`, a detached RFC 7515 JWS (RS256) whose protected header names the signing
// certificate in `x5u` (on https://secure.tpay.com; the sandbox on https://secure.sandbox.tpay.com).
// Tpay's own example verifies, in this order: x5u is on Tpay's host, the certificate at x5u is issued
// by Tpay's JWS root (https://secure.tpay.com/x509/tpay-jws-root.pem), then the signature over
// `{protected header}.{base64url(raw body)}` with that certificate's key.
//
// The root is pinned (configured, never fetched): in production TPAY_JWS_ROOT_PEM, in development the
// dev peer's own CA (dev-pki/root.ts). workerd's node:crypto X509Certificate (nodejs_compat) can
// check the issuer too (checkIssued/verify work there); the chain is checked here with a small DER
// reader and WebCrypto instead, so the validity dates are compared explicitly and the same code runs
// in workerd and node (the reader takes only what the check needs: the signed part, its algorithm
// and signature, issuer, subject, validity and the public key).

const SHA256_WITH_RSA = '2a864886f70d01010b' // 1.2.840.113549.1.1.11
const RSA_PARAMS = { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' } as const

type Tlv = { tag: number; start: number; contentStart: number; end: number }

function readTlv(der: Uint8Array, offset: number): Tlv {
  if (offset + 2 > der.length) throw new Error('DER: truncated')
  const tag = der[offset]!
  let length = der[offset + 1]!
  let contentStart = offset + 2
  if (length & 0x80) {
    const bytes = length & 0x7f
    if (bytes === 0 || bytes > 4) throw new Error('DER: unsupported length')
    length = 0
    for (let i = 0; i < bytes; i++) length = length * 256 + der[contentStart + i]!
    contentStart += bytes
  }
  const end = contentStart + length
  if (end > der.length) throw new Error('DER: truncated')
  return { tag, start: offset, contentStart, end }
}

/** The TLVs directly inside a constructed TLV. */
function children(der: Uint8Array, parent: Tlv): Tlv[] {
  const out: Tlv[] = []
  for (let at = parent.contentStart; at < parent.end; ) {
    const child = readTlv(der, at)
    out.push(child)
    at = child.end
  }
  return out
}

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')

/** UTCTime (YYMMDDHHMMSSZ) or GeneralizedTime (YYYYMMDDHHMMSSZ) → ms. */
function timeOf(der: Uint8Array, t: Tlv): number {
  const s = new TextDecoder().decode(der.subarray(t.contentStart, t.end))
  const m = t.tag === 0x17 ? s.match(/^(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/) : s.match(/^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})Z$/)
  if (!m) throw new Error('X.509: bad time')
  const year = t.tag === 0x17 ? (Number(m[1]) < 50 ? 2000 : 1900) + Number(m[1]) : Number(m[1])
  return Date.UTC(year, Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]))
}

type Bytes = Uint8Array<ArrayBuffer>

export type Certificate = {
  tbs: Bytes
  signatureAlgorithm: string
  signature: Bytes
  issuer: string
  subject: string
  notBefore: number
  notAfter: number
  spki: Bytes
}

export function parseCertificate(der: Uint8Array): Certificate {
  const top = readTlv(der, 0)
  const [tbs, sigAlg, sigValue] = children(der, top)
  if (!tbs || !sigAlg || !sigValue || top.tag !== 0x30 || tbs.tag !== 0x30 || sigValue.tag !== 0x03) throw new Error('X.509: not a certificate')
  const fields = children(der, tbs)
  // [0] version is optional; then serial, signature, issuer, validity, subject, subjectPublicKeyInfo.
  const f = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields
  const [, , issuer, validity, subject, spki] = f
  if (!issuer || !validity || !subject || !spki) throw new Error('X.509: incomplete')
  const [notBefore, notAfter] = children(der, validity)
  const oid = children(der, sigAlg)[0]
  if (!notBefore || !notAfter || !oid) throw new Error('X.509: incomplete')
  return {
    tbs: der.slice(tbs.start, tbs.end),
    signatureAlgorithm: hex(der.subarray(oid.contentStart, oid.end)),
    // BIT STRING: the first content byte counts unused bits (0 for a signature).
    signature: der.slice(sigValue.contentStart + 1, sigValue.end),
    issuer: hex(der.subarray(issuer.start, issuer.end)),
    subject: hex(der.subarray(subject.start, subject.end)),
    notBefore: timeOf(der, notBefore),
    notAfter: timeOf(der, notAfter),
    spki: der.slice(spki.start, spki.end),
  }
}

export function pemToDer(pem: string): Bytes {
  const body = pem.match(/-----BEGIN CERTIFICATE-----([\s\S]+?)-----END CERTIFICATE-----/)?.[1]
  if (!body) throw new Error('PEM: no certificate')
  return Uint8Array.from(atob(body.replace(/\s+/g, '')), (c) => c.charCodeAt(0))
}

const importKey = (spki: Bytes) => crypto.subtle.importKey('spki', spki, RSA_PARAMS, false, ['verify'])

/** The leaf is valid now and issued (name and signature) by the pinned root, which is valid now too. */
export async function issuedBy(leaf: Certificate, root: Certificate, now = Date.now()) {
  if (leaf.issuer !== root.subject) return false
  if (leaf.signatureAlgorithm !== SHA256_WITH_RSA) return false
  if (now < leaf.notBefore || now > leaf.notAfter || now < root.notBefore || now > root.notAfter) return false
  return crypto.subtle.verify(RSA_PARAMS, await importKey(root.spki), leaf.signature, leaf.tbs)
}

const b64urlToBytes = (s: string): Bytes => {
  if (!/^[A-Za-z0-9_-]*$/.test(s)) throw new Error('base64url: bad input')
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/')
  return Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0))
}
export const bytesToB64url = (bytes: Uint8Array) => {
  let s = ''
  for (const b of bytes) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}

export type JwsCheck = {
  /** The pinned root (PEM). */
  rootPem: string
  /** Where x5u must point (Tpay's host, or the dev peer's). */
  x5uPrefix: string
  /** Fetches the certificate PEM at x5u (null when it cannot be had). */
  fetchCertificate(url: string): Promise<string | null>
  now?: number
}

/**
 * Verify a detached JWS over the raw body. false for anything that does not verify — a missing or
 * malformed header, another alg, x5u elsewhere, a certificate not issued by the pinned root, a
 * signature that fails — never an exception.
 */
export async function verifyTpayJws(signature: string | null, rawBody: string, check: JwsCheck): Promise<boolean> {
  try {
    if (!signature) return false
    const parts = signature.trim().split('.')
    if (parts.length !== 3 || parts[1] !== '' || !parts[0] || !parts[2]) return false
    const header = JSON.parse(new TextDecoder().decode(b64urlToBytes(parts[0]))) as { alg?: unknown; x5u?: unknown }
    if (header.alg !== 'RS256' || typeof header.x5u !== 'string') return false
    if (!header.x5u.startsWith(check.x5uPrefix)) return false
    const pem = await check.fetchCertificate(header.x5u)
    if (!pem) return false
    const leaf = parseCertificate(pemToDer(pem))
    const root = parseCertificate(pemToDer(check.rootPem))
    if (!(await issuedBy(leaf, root, check.now))) return false
    const signingInput = new TextEncoder().encode(`${parts[0]}.${bytesToB64url(new TextEncoder().encode(rawBody))}`)
    return await crypto.subtle.verify(RSA_PARAMS, await importKey(leaf.spki), b64urlToBytes(parts[2]), signingInput)
  } catch {
    return false
  }
}
