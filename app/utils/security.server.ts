// CSRF and security headers, applied to every request in the worker entry (server.ts).

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Every mutation must come from a page of the same origin. Sec-Fetch-Site must be
 * "same-origin" — "same-site" is not enough, because schools share the platform's registrable
 * domain. Browsers without Fetch Metadata fall back to the Origin header.
 */
export function isCsrfSafe(request: Request) {
  if (SAFE_METHODS.has(request.method)) return true
  const site = request.headers.get('Sec-Fetch-Site')
  if (site) return site === 'same-origin'
  const origin = request.headers.get('Origin')
  if (!origin || origin === 'null') return false
  return origin === new URL(request.url).origin
}

/** A request made by script (fetcher, single-fetch data request, XHR) rather than a document navigation. */
export function isDataRequest(request: Request) {
  const url = new URL(request.url)
  return (
    url.pathname.endsWith('.data') ||
    request.headers.get('X-Requested-With') === 'XMLHttpRequest' ||
    (request.headers.get('Accept') ?? '').includes('application/json')
  )
}

export function newNonce() {
  const bytes = new Uint8Array(16)
  crypto.getRandomValues(bytes)
  return btoa(String.fromCharCode(...bytes))
}

export function applySecurityHeaders(
  headers: Headers,
  {
    nonce,
    request,
    formActionExtra,
    imgSrcExtra,
    connectSrcExtra,
    frameSrcExtra,
  }: {
    nonce: string
    request: Request
    formActionExtra?: string
    /** The media origin (uploaded images). */
    imgSrcExtra?: string
    /** Origins scripts talk to: the S3 endpoint of presigned uploads, Bunny's tus endpoint. */
    connectSrcExtra?: string
    /** Origins pages may frame: Bunny's player. */
    frameSrcExtra?: string
  },
) {
  const https = new URL(request.url).protocol === 'https:'
  const csp = [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    `img-src 'self' data: https:${imgSrcExtra ? ` ${imgSrcExtra}` : ''}`,
    "font-src 'self'",
    `connect-src 'self'${connectSrcExtra ? ` ${connectSrcExtra}` : ''}`,
    `frame-src 'self'${frameSrcExtra ? ` ${frameSrcExtra}` : ''}`,
    "object-src 'none'",
    "base-uri 'self'",
    `form-action 'self'${formActionExtra ? ` ${formActionExtra}` : ''}`,
    "frame-ancestors 'none'",
  ]
  if (https) csp.push('upgrade-insecure-requests')
  headers.set('Content-Security-Policy', csp.join('; '))
  headers.set('X-Content-Type-Options', 'nosniff')
  headers.set('X-Frame-Options', 'DENY')
  headers.set('Referrer-Policy', 'strict-origin-when-cross-origin')
  headers.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(self)')
  headers.set('Cross-Origin-Opener-Policy', 'same-origin')
  if (https) headers.set('Strict-Transport-Security', 'max-age=31536000; includeSubDomains')
}
