// A local stand-in for R2's S3 API, enough for presigned uploads (issue 4): `PUT /{bucket}/{key}`
// checked with verifyPresignedRequest (app/media/sigv4.server.ts) and written to the MEDIA R2
// binding (same bucket name as the media worker's, so both see the same objects), plus the CORS
// preflight a browser sends first. Errors are S3's XML bodies (docs.aws.amazon.com/AmazonS3/latest/
// API/ErrorResponses.html): 403 SignatureDoesNotMatch (signature or signed headers wrong),
// 403 AccessDenied "Request has expired" (past X-Amz-Expires; also "not yet valid"),
// 403 InvalidAccessKeyId (unknown key id / scope), 400 AuthorizationQueryParametersError
// (missing or malformed X-Amz-* parameters), 405 MethodNotAllowed.
import { Hono } from 'hono'
import { verifyPresignedRequest, type VerifyFailure } from '#app/media/sigv4.server.ts'
import type { PeersHono } from './env.ts'

const xmlEscape = (s: string) => s.replace(/[<>&"']/g, (ch) => `&#${ch.charCodeAt(0)};`)

export function s3Error(status: number, code: string, message: string, resource: string, extraHeaders: Record<string, string> = {}) {
  const body = `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${xmlEscape(message)}</Message><Resource>${xmlEscape(resource)}</Resource><RequestId>${crypto.randomUUID().replace(/-/g, '').slice(0, 16).toUpperCase()}</RequestId></Error>`
  return new Response(body, { status, headers: { 'Content-Type': 'application/xml', ...extraHeaders } })
}

const FAILURES: Record<VerifyFailure, [number, string, string]> = {
  missing: [403, 'AccessDenied', 'Query-string authentication requires the Signature, Expires and AWSAccessKeyId parameters'],
  malformed: [400, 'AuthorizationQueryParametersError', 'Error parsing the X-Amz-Credential parameter; the query parameters are malformed.'],
  algorithm: [400, 'AuthorizationQueryParametersError', 'X-Amz-Algorithm only supports "AWS4-HMAC-SHA256"'],
  credential: [403, 'InvalidAccessKeyId', 'The AWS Access Key Id you provided does not exist in our records.'],
  expired: [403, 'AccessDenied', 'Request has expired'],
  not_yet_valid: [403, 'AccessDenied', 'Request is not valid yet'],
  headers: [403, 'SignatureDoesNotMatch', 'There were headers present in the request which were not signed, or signed headers are missing.'],
  signature: [403, 'SignatureDoesNotMatch', 'The request signature we calculated does not match the signature you provided. Check your key and signing method.'],
}

/** CORS for the schools' pages: any http(s)://{slug}.{PEER_S3_CORS_HOST}[:port] origin. */
function allowedOrigin(origin: string | null, platformHost: string) {
  if (!origin) return null
  try {
    const url = new URL(origin)
    if ((url.protocol === 'http:' || url.protocol === 'https:') && (url.hostname === platformHost || url.hostname.endsWith(`.${platformHost}`))) return origin
  } catch {
    // not an origin
  }
  return null
}

function corsHeaders(origin: string | null): Record<string, string> {
  if (!origin) return {}
  return { 'Access-Control-Allow-Origin': origin, 'Access-Control-Expose-Headers': 'ETag', Vary: 'Origin' }
}

export const s3Peer = new Hono<PeersHono>()

s3Peer.options('/:bucket/*', async (c, next) => {
  if (c.req.param('bucket') !== c.env.PEER_S3_BUCKET) return next()
  const origin = allowedOrigin(c.req.header('Origin') ?? null, c.env.PEER_S3_CORS_HOST)
  const method = (c.req.header('Access-Control-Request-Method') ?? '').toUpperCase()
  if (!origin || method !== 'PUT') return s3Error(403, 'AccessDenied', 'CORSResponse: This CORS request is not allowed.', new URL(c.req.url).pathname)
  const requested = (c.req.header('Access-Control-Request-Headers') ?? '').toLowerCase().split(',').map((h) => h.trim()).filter(Boolean)
  if (requested.some((h) => h !== 'content-type')) return s3Error(403, 'AccessDenied', 'CORSResponse: This CORS request is not allowed.', new URL(c.req.url).pathname)
  return c.body(null, 204, { ...corsHeaders(origin), 'Access-Control-Allow-Methods': 'PUT', 'Access-Control-Allow-Headers': 'content-type', 'Access-Control-Max-Age': '3000' })
})

s3Peer.all('/:bucket/*', async (c, next) => {
  if (c.req.param('bucket') !== c.env.PEER_S3_BUCKET) return next() // not ours: the peers' 404
  const url = new URL(c.req.url)
  const cors = corsHeaders(allowedOrigin(c.req.header('Origin') ?? null, c.env.PEER_S3_CORS_HOST))
  const bucket = c.req.param('bucket')
  if (c.req.method !== 'PUT') return s3Error(405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.', url.pathname, cors)
  const verdict = await verifyPresignedRequest(c.req.raw, {
    accessKeyId: c.env.PEER_S3_ACCESS_KEY_ID,
    secretAccessKey: c.env.PEER_S3_SECRET_ACCESS_KEY,
    requiredSignedHeaders: ['content-type', 'content-length'],
  })
  if (!verdict.ok) {
    const [status, code, message] = FAILURES[verdict.reason]
    return s3Error(status, code, message, url.pathname, cors)
  }
  const key = verdict.path.slice(`/${bucket}/`.length)
  const declared = Number(c.req.header('Content-Length'))
  const body = new Uint8Array(await c.req.arrayBuffer())
  // Like S3: the body must be as long as the (signed) Content-Length says.
  if (!Number.isFinite(declared) || body.length !== declared) return s3Error(400, 'IncompleteBody', 'You did not provide the number of bytes specified by the Content-Length HTTP header', url.pathname, cors)
  const object = await c.env.MEDIA.put(key, body, { httpMetadata: { contentType: c.req.header('Content-Type') ?? undefined } })
  return c.body(null, 200, { ...cors, ETag: object?.httpEtag ?? '""' })
})
