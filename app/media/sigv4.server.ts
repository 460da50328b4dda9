// AWS Signature Version 4, query-string form ("presigned URLs"), for S3-compatible storage:
// R2's S3 API (`https://<account>.r2.cloudflarestorage.com`, region `auto`) and, later, a local
// S3 peer that verifies what we sign.
//
// What was checked, and where (stored copies read through the project's search tool):
// - The algorithm: docs.aws.amazon.com/AmazonS3/latest/API/sigv4-query-string-auth.html
//   ("Authenticating Requests: Using Query Parameters (AWS Signature Version 4)"):
//     CanonicalRequest = Method \n CanonicalURI \n CanonicalQueryString \n CanonicalHeaders \n
//                        SignedHeaders \n "UNSIGNED-PAYLOAD"
//     StringToSign     = "AWS4-HMAC-SHA256" \n X-Amz-Date \n <yyyymmdd>/<region>/s3/aws4_request \n
//                        hex(SHA256(CanonicalRequest))
//     SigningKey       = HMAC(HMAC(HMAC(HMAC("AWS4" + secret, yyyymmdd), region), "s3"), "aws4_request")
//     Signature        = hex(HMAC(SigningKey, StringToSign))
//   Query parameters X-Amz-Algorithm, X-Amz-Credential (`/` encoded as %2F), X-Amz-Date,
//   X-Amz-Expires (1..604800 s), X-Amz-SignedHeaders (always `host`), X-Amz-Signature.
//   URI encoding: RFC 3986 unreserved characters stay, everything else %XX upper-case; `/` in
//   the object key stays (S3 does not double-encode paths).
// - The published example on that page (GET examplebucket/test.txt, AKIAIOSFODNN7EXAMPLE,
//   20130524T000000Z, us-east-1, 86400 s): canonical request hash
//   3bfa292879f6447bbcda7001decf97f4a54dc650c8942174ae0a9121cf58ad04, signature
//   aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404. The stored AWS page came back
//   truncated before the example, so both values were confirmed from several independent public
//   test suites that quote that page, and re-derived with Node's crypto before writing this.
//   sigv4.server.test.ts pins them.
// - R2 (reference/reliability-security-performance.md §3, developers.cloudflare.com r2/api/s3/
//   presigned-urls): expiry 1 s – 7 days; GET/HEAD/PUT/DELETE only (no POST form uploads); only on
//   `<account>.r2.cloudflarestorage.com`, not custom domains; region `auto`; signed headers such as
//   `content-type`/`content-length` bind the upload to what we checked.
import { constantTimeEqual } from '@oslojs/crypto/subtle'
import { decodeHex, encodeHexLowerCase } from '@oslojs/encoding'

export const SIGV4_ALGORITHM = 'AWS4-HMAC-SHA256'
export const UNSIGNED_PAYLOAD = 'UNSIGNED-PAYLOAD'
export const MAX_EXPIRES_SECONDS = 604_800
export type PresignMethod = 'PUT' | 'GET' | 'HEAD' | 'DELETE'
const METHODS: readonly string[] = ['PUT', 'GET', 'HEAD', 'DELETE']

export type PresignOptions = {
  method: PresignMethod
  /** Origin of the S3 API, e.g. `https://<account>.r2.cloudflarestorage.com` (no path). */
  endpoint: string
  bucket: string
  /** Object key, e.g. `tenants/t1/cover/abc.jpg`; never from a client filename. */
  key: string
  accessKeyId: string
  secretAccessKey: string
  /** R2: `auto`. */
  region?: string
  service?: string
  expiresSeconds: number
  /** Headers the client must send with exactly these values (names any case; `host` is always signed). */
  signedHeaders?: Record<string, string>
  /** Extra query parameters that become part of the signature (e.g. partNumber, uploadId). */
  query?: Record<string, string>
  /** Signing time; defaults to now. */
  now?: Date | number
  /** R2 and most peers: `path` (`/bucket/key`); AWS's examples: `virtual-hosted` (`bucket.host/key`). */
  addressing?: 'path' | 'virtual-hosted'
}

export type PresignedRequest = {
  url: string
  method: PresignMethod
  /** The headers the client must send (signed ones, host excluded: the browser sets it). */
  headers: Record<string, string>
  /** Epoch milliseconds after which the URL no longer works. */
  expiresAt: number
}

const encoder = new TextEncoder()

/** RFC 3986 encoding as SigV4 wants it: unreserved A-Z a-z 0-9 - . _ ~ stay, the rest %XX. */
export function uriEncode(value: string, keepSlash = false) {
  let out = ''
  for (const byte of encoder.encode(value)) {
    const ch = String.fromCharCode(byte)
    if (/[A-Za-z0-9\-._~]/.test(ch) || (keepSlash && ch === '/')) out += ch
    else out += `%${byte.toString(16).toUpperCase().padStart(2, '0')}`
  }
  return out
}

async function sha256Hex(data: string) {
  return encodeHexLowerCase(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(data))))
}

async function hmac(key: Uint8Array<ArrayBuffer> | string, data: string): Promise<Uint8Array<ArrayBuffer>> {
  const raw = typeof key === 'string' ? encoder.encode(key) : key
  const cryptoKey = await crypto.subtle.importKey('raw', raw, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign'])
  return new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, encoder.encode(data)))
}

export async function signingKey(secretAccessKey: string, date: string, region: string, service: string) {
  const kDate = await hmac(`AWS4${secretAccessKey}`, date)
  const kRegion = await hmac(kDate, region)
  const kService = await hmac(kRegion, service)
  return hmac(kService, 'aws4_request')
}

/** `20130524T000000Z` */
export function amzDate(time: Date | number) {
  return new Date(time).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '')
}

function parseAmzDate(value: string): number | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value)
  if (!m) return null
  const time = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6])
  return amzDate(time) === value ? time : null // rejects 20130230 and the like
}

const canonicalHeaderValue = (value: string) => value.trim().replace(/\s+/g, ' ')
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9a-z]+$/

function canonicalQuery(params: [string, string][]) {
  return params
    .map(([k, v]) => [uriEncode(k), uriEncode(v)] as const)
    .sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&')
}

function buildCanonicalRequest(method: string, canonicalUri: string, query: string, headers: [string, string][]) {
  const sorted = [...headers].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  const canonicalHeaders = sorted.map(([name, value]) => `${name}:${canonicalHeaderValue(value)}\n`).join('')
  const signedHeaders = sorted.map(([name]) => name).join(';')
  return { canonicalRequest: [method, canonicalUri, query, canonicalHeaders, signedHeaders, UNSIGNED_PAYLOAD].join('\n'), signedHeaders }
}

async function stringToSignFor(canonicalRequest: string, date: string, scope: string) {
  return [SIGV4_ALGORITHM, date, scope, await sha256Hex(canonicalRequest)].join('\n')
}

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/

/** Everything a presign computes, for tests and debugging; use `presignUrl` in code. */
export async function presignDetailed(options: PresignOptions) {
  const { method, bucket, key, accessKeyId, secretAccessKey, expiresSeconds } = options
  const region = options.region ?? 'auto'
  const service = options.service ?? 's3'
  if (!METHODS.includes(method)) throw new Error(`presign: method ${method} cannot be presigned`)
  if (!Number.isInteger(expiresSeconds) || expiresSeconds < 1 || expiresSeconds > MAX_EXPIRES_SECONDS) {
    throw new RangeError(`presign: expiresSeconds must be an integer 1..${MAX_EXPIRES_SECONDS}`)
  }
  if (!BUCKET.test(bucket)) throw new Error(`presign: invalid bucket ${JSON.stringify(bucket)}`)
  const segments = key.split('/')
  if (!key || segments.some((s) => s === '' || s === '.' || s === '..')) throw new Error(`presign: invalid key ${JSON.stringify(key)}`)
  if (!accessKeyId || !secretAccessKey) throw new Error('presign: missing credentials')

  const endpoint = new URL(options.endpoint)
  if ((endpoint.protocol !== 'https:' && endpoint.protocol !== 'http:') || endpoint.pathname !== '/' || endpoint.search || endpoint.username) {
    throw new Error(`presign: endpoint must be a bare http(s) origin, got ${options.endpoint}`)
  }
  const virtual = options.addressing === 'virtual-hosted'
  const host = virtual ? `${bucket}.${endpoint.host}` : endpoint.host
  const canonicalUri = '/' + (virtual ? '' : `${uriEncode(bucket)}/`) + uriEncode(key, true)

  const headers: [string, string][] = [['host', host]]
  const clientHeaders: Record<string, string> = {}
  for (const [rawName, value] of Object.entries(options.signedHeaders ?? {})) {
    const name = rawName.toLowerCase()
    if (!HEADER_NAME.test(name) || name === 'host' || headers.some(([n]) => n === name)) throw new Error(`presign: bad signed header ${rawName}`)
    if (/[\r\n]/.test(value)) throw new Error(`presign: bad value for ${rawName}`)
    headers.push([name, value])
    clientHeaders[name] = value.trim()
  }

  const now = options.now === undefined ? Date.now() : new Date(options.now).getTime()
  const dateTime = amzDate(now)
  const date = dateTime.slice(0, 8)
  const scope = `${date}/${region}/${service}/aws4_request`
  const signedHeaderNames = headers.map(([n]) => n).sort().join(';')

  const params: [string, string][] = [
    ['X-Amz-Algorithm', SIGV4_ALGORITHM],
    ['X-Amz-Credential', `${accessKeyId}/${scope}`],
    ['X-Amz-Date', dateTime],
    ['X-Amz-Expires', String(expiresSeconds)],
    ['X-Amz-SignedHeaders', signedHeaderNames],
    ...Object.entries(options.query ?? {}),
  ]
  if (new Set(params.map(([k]) => k.toLowerCase())).size !== params.length) throw new Error('presign: duplicate query parameter')
  const query = canonicalQuery(params)
  const { canonicalRequest } = buildCanonicalRequest(method, canonicalUri, query, headers)
  const stringToSign = await stringToSignFor(canonicalRequest, dateTime, scope)
  const signature = encodeHexLowerCase(await hmac(await signingKey(secretAccessKey, date, region, service), stringToSign))
  const url = `${endpoint.protocol}//${host}${canonicalUri}?${query}&X-Amz-Signature=${signature}`
  return { url, method, headers: clientHeaders, expiresAt: now + expiresSeconds * 1000, canonicalRequest, stringToSign, signature }
}

/** A presigned URL for one method on one object, valid `expiresSeconds`. */
export async function presignUrl(options: PresignOptions): Promise<PresignedRequest> {
  const { url, method, headers, expiresAt } = await presignDetailed(options)
  return { url, method, headers, expiresAt }
}

// ---------------------------------------------------------------------------------------------
// Verification (the local S3 peer; any code that accepts our presigned URLs).

export type VerifyOptions = {
  accessKeyId: string
  secretAccessKey: string
  region?: string
  service?: string
  now?: Date | number
  /** Tolerated clock difference for URLs dated in the future. */
  clockSkewSeconds?: number
  /** Headers that must be among the signed ones (e.g. content-length for uploads). */
  requiredSignedHeaders?: string[]
}

export type VerifyFailure = 'missing' | 'malformed' | 'algorithm' | 'credential' | 'expired' | 'not_yet_valid' | 'headers' | 'signature'
export type VerifyResult =
  | { ok: true; method: PresignMethod; /** Decoded path, `/bucket/key` for path-style. */ path: string; expiresAt: number; signedHeaders: string[] }
  | { ok: false; reason: VerifyFailure }

function parseRawQuery(search: string): [string, string][] | null {
  const out: [string, string][] = []
  if (!search || search === '?') return out
  for (const part of search.replace(/^\?/, '').split('&')) {
    if (part === '') continue
    const eq = part.indexOf('=')
    const rawName = eq < 0 ? part : part.slice(0, eq)
    const rawValue = eq < 0 ? '' : part.slice(eq + 1)
    try {
      out.push([decodeURIComponent(rawName), decodeURIComponent(rawValue)]) // `+` stays `+`, as S3 reads it
    } catch {
      return null
    }
  }
  return out
}

/** Check a request made with a URL from `presignUrl`: signature, scope, expiry, signed headers. */
export async function verifyPresignedRequest(request: Request, options: VerifyOptions): Promise<VerifyResult> {
  const fail = (reason: VerifyFailure): VerifyResult => ({ ok: false, reason })
  const region = options.region ?? 'auto'
  const service = options.service ?? 's3'
  const url = new URL(request.url)
  const method = request.method.toUpperCase()
  if (!METHODS.includes(method)) return fail('malformed')

  const params = parseRawQuery(url.search)
  if (!params) return fail('malformed')
  const names = params.map(([k]) => k.toLowerCase())
  if (new Set(names).size !== names.length) return fail('malformed')
  const get = (name: string) => params.find(([k]) => k === name)?.[1]
  const algorithm = get('X-Amz-Algorithm')
  const credential = get('X-Amz-Credential')
  const dateTime = get('X-Amz-Date')
  const expiresRaw = get('X-Amz-Expires')
  const signedHeaderList = get('X-Amz-SignedHeaders')
  const signature = get('X-Amz-Signature')
  if (!algorithm || !credential || !dateTime || !expiresRaw || !signedHeaderList || !signature) return fail('missing')
  if (algorithm !== SIGV4_ALGORITHM) return fail('algorithm')

  const signedAt = parseAmzDate(dateTime)
  if (signedAt === null || !/^[0-9]{1,6}$/.test(expiresRaw) || !/^[0-9a-f]{64}$/.test(signature)) return fail('malformed')
  const expires = Number(expiresRaw)
  if (expires < 1 || expires > MAX_EXPIRES_SECONDS) return fail('malformed')

  const [keyId, date, credRegion, credService, terminator, ...extra] = credential.split('/')
  if (extra.length || keyId !== options.accessKeyId || date !== dateTime.slice(0, 8) || credRegion !== region || credService !== service || terminator !== 'aws4_request') {
    return fail('credential')
  }

  const now = options.now === undefined ? Date.now() : new Date(options.now).getTime()
  const expiresAt = signedAt + expires * 1000
  if (signedAt > now + (options.clockSkewSeconds ?? 300) * 1000) return fail('not_yet_valid')
  if (now > expiresAt) return fail('expired')

  // Signed headers: sorted, lower-case, include host, each present on the request.
  const signedNames = signedHeaderList.split(';')
  const sortedNames = [...signedNames].sort()
  if (!signedNames.every((n) => HEADER_NAME.test(n)) || signedNames.join(';') !== sortedNames.join(';') || new Set(signedNames).size !== signedNames.length || !signedNames.includes('host')) {
    return fail('headers')
  }
  if ((options.requiredSignedHeaders ?? []).some((h) => !signedNames.includes(h.toLowerCase()))) return fail('headers')
  const headers: [string, string][] = []
  for (const name of signedNames) {
    const value = name === 'host' ? (request.headers.get('host') ?? url.host) : request.headers.get(name)
    if (value === null) return fail('headers')
    headers.push([name, value])
  }

  // Canonical URI from the path as sent, re-encoded canonically (so %7E and ~ agree).
  let decodedSegments: string[]
  try {
    decodedSegments = url.pathname.split('/').map((s) => decodeURIComponent(s))
  } catch {
    return fail('malformed')
  }
  const canonicalUri = decodedSegments.map((s) => uriEncode(s)).join('/')
  const query = canonicalQuery(params.filter(([k]) => k !== 'X-Amz-Signature'))
  const { canonicalRequest } = buildCanonicalRequest(method, canonicalUri, query, headers)
  const scope = `${date}/${region}/${service}/aws4_request`
  const expected = await hmac(await signingKey(options.secretAccessKey, date, region, service), await stringToSignFor(canonicalRequest, dateTime, scope))
  if (!constantTimeEqual(expected, decodeHex(signature))) return fail('signature')

  return { ok: true, method: method as PresignMethod, path: decodedSegments.join('/'), expiresAt, signedHeaders: signedNames }
}
