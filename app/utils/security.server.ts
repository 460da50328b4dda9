// CSRF and security headers, applied to every request in the worker entry (server.ts).

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * Every mutation must come from a page of the same origin. Sec-Fetch-Site must be
 * "same-origin" — "same-site" is not enough, because schools share the platform's registrable
 * domain. Browsers without Fetch Metadata fall back to the Origin header. An Origin header that is
 * present must be this request's origin whatever Sec-Fetch-Site says (issue 19 §2): a foreign or
 * "null" Origin is refused here with our 403 page, not left to Remix's own check (an empty 500).
 */
export function isCsrfSafe(request: Request) {
  if (SAFE_METHODS.has(request.method)) return true
  const origin = request.headers.get('Origin')
  if (origin !== null && origin !== new URL(request.url).origin) return false
  const site = request.headers.get('Sec-Fetch-Site')
  if (site) return site === 'same-origin'
  return origin !== null
}

/**
 * The request as Remix sees it: no `X-Forwarded-Host` (nothing of ours reads it; the tenant comes
 * from the URL's host, ADR 002) and a `Host` that is the URL's own. Remix's own CSRF check compares
 * the Origin with those two headers and answers a mismatch, or a missing Host, with an empty 500
 * (issue 19 §2); isCsrfSafe has already held the Origin to the URL's origin.
 */
export function withOwnHost<R extends Request>(request: R, host = new URL(request.url).host): R {
  if (!request.headers.has('X-Forwarded-Host') && request.headers.get('Host') === host) return request
  const headers = new Headers(request.headers)
  headers.delete('X-Forwarded-Host')
  headers.set('Host', host)
  // The same request otherwise (method, body, signal, Cloudflare's cf properties).
  return new Request(request, { headers }) as R
}

/**
 * Payment providers' notifications (`POST /payments/{provider}/{integrationId}/notify`) come from
 * their servers, with no Origin or Fetch Metadata. They are exempt from the browser CSRF check:
 * the handler reads no cookies and acts only on a body whose signature it verified (ADR 019).
 */
export function isProviderNotification(request: Request) {
  return request.method === 'POST' && /^\/payments\/[a-z][a-z0-9]{1,9}\/[A-Za-z0-9_-]{1,64}\/notify$/.test(new URL(request.url).pathname)
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

function scriptSrc(scripts: { nonce: string; creatorScripts?: boolean } | { hashes: string[] }, extra?: string) {
  if ('hashes' in scripts) return ['script-src', "'self'", ...scripts.hashes.map((hash) => `'sha256-${hash}'`)].join(' ')
  // 'strict-dynamic' only for a school's public page with creator code on it: the nonce'd
  // snippets may load analytics and pixels from anywhere; every other page keeps the strict list.
  if (scripts.creatorScripts) return `script-src 'self' 'nonce-${scripts.nonce}' 'strict-dynamic'`
  return `script-src 'self' 'nonce-${scripts.nonce}'${extra ? ` ${extra}` : ''}`
}

/**
 * Set by a loader in the request's memo (issue 25): a payment provider's hosted fields page loads
 * that provider's script, frames its fields and lets them talk to its API — those origins only,
 * on that page only.
 */
export const PROVIDER_ORIGINS_MEMO_KEY = 'providerOrigins'
export type ProviderOrigins = { script: string[]; frame: string[]; connect: string[] }

/** Origins as CSP sources: only well-formed http(s) origins pass (a module's config is not trusted blindly). */
export function cspSources(origins: string[] | undefined) {
  return (origins ?? []).filter((o) => /^https?:\/\/[a-z0-9.-]+(?::\d{1,5})?$/i.test(o)).join(' ')
}

export function applySecurityHeaders(
  headers: Headers,
  {
    scripts,
    request,
    formActionExtra,
    imgSrcExtra,
    connectSrcExtra,
    frameSrcExtra,
    scriptSrcExtra,
  }: {
    /**
     * How the page's scripts are allowed: this response's nonce, with 'strict-dynamic' when the page
     * carries the creator's own scripts (ADR 013: let what they load run too); or the SHA-256 hashes
     * of a stored page's inline scripts (a page-cache hit sent as stored, ADR 015).
     */
    scripts: { nonce: string; creatorScripts?: boolean } | { hashes: string[] }
    request: Request
    formActionExtra?: string
    /** The media origin (uploaded images). */
    imgSrcExtra?: string
    /** Origins scripts talk to: the S3 endpoint of presigned uploads, Bunny's tus endpoint. */
    connectSrcExtra?: string
    /** Origins pages may frame: Bunny's player. */
    frameSrcExtra?: string
    /** Script origins beyond our own (a payment provider's hosted fields page, issue 25). */
    scriptSrcExtra?: string
  },
) {
  const https = new URL(request.url).protocol === 'https:'
  const csp = [
    "default-src 'self'",
    scriptSrc(scripts, scriptSrcExtra),
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

// ---- the creator's own scripts (page settings: JavaScript code, conversion code; ADR 013) --------

/** Set in the request's memo by the root loader when it hands creator code to the page. */
export const CREATOR_SCRIPTS_MEMO_KEY = 'creatorScripts'

/**
 * Pages of a school where the creator's scripts never run: the instructor panel, the student's
 * panel, and every page where a password, a one-use token or a private file passes. On these the
 * code could act with the signed-in user's session or read credentials as they are typed.
 */
const NO_CREATOR_SCRIPTS = ['/home', '/panel', '/login', '/logout', '/register', '/forgot-password', '/reset-password', '/auth', '/files', '/set-language', '/dev', '/operator']

export function allowsCreatorScripts(pathname: string) {
  // Judge the path the router matches: decoded, case-insensitive, without the data suffix.
  let path: string
  try {
    path = decodeURIComponent(pathname)
  } catch {
    return false
  }
  path = path.toLowerCase().replace(/[\\/]+/g, '/').replace(/\.data$/, '')
  return !NO_CREATOR_SCRIPTS.some((prefix) => path === prefix || path.startsWith(`${prefix}/`))
}

export type CreatorScript = { src: string } | { code: string }

const MAX_SCRIPTS = 20

/**
 * The creator pastes either plain JavaScript or an HTML snippet of `<script>` tags (what
 * analytics tools hand out). Each becomes one script we render with this response's nonce: an
 * external one keeps only its http(s) `src`, an inline one its text. Anything else in the snippet
 * (noscript pixels, markup) is dropped; the inline text can never close its element.
 */
export function creatorScriptBlocks(code: string): CreatorScript[] {
  const source = code.trim()
  if (!source) return []
  const blocks: CreatorScript[] = []
  if (/<script\b/i.test(source)) {
    for (const match of source.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi)) {
      const src = /\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(match[1])
      const url = (src?.[1] ?? src?.[2] ?? src?.[3] ?? '').trim().replace(/&amp;/g, '&')
      if (src) {
        if (/^https?:\/\//i.test(url) || url.startsWith('//')) blocks.push({ src: url })
      } else if (match[2].trim()) blocks.push({ code: inlineSafe(match[2]) })
      if (blocks.length >= MAX_SCRIPTS) break
    }
    return blocks
  }
  return [{ code: inlineSafe(source) }]
}

/** Text that cannot end (or comment-escape) the <script> element it is rendered in. */
function inlineSafe(js: string) {
  return js.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--')
}
