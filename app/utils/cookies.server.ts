export function parseCookies(header: string | null) {
  const out: Record<string, string> = {}
  if (!header) return out
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    const name = part.slice(0, eq).trim()
    if (!name || name in out) continue
    try {
      out[name] = decodeURIComponent(part.slice(eq + 1).trim())
    } catch {
      /* malformed value: ignore */
    }
  }
  return out
}

type CookieOptions = { maxAge?: number; httpOnly?: boolean; secure: boolean; sameSite?: 'Lax' | 'Strict' }

/** Host-only cookies (no Domain attribute): a school's cookie never reaches another host. */
export function serializeCookie(name: string, value: string, opts: CookieOptions) {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', `SameSite=${opts.sameSite ?? 'Lax'}`]
  if (opts.httpOnly !== false) parts.push('HttpOnly')
  if (opts.secure) parts.push('Secure')
  if (opts.maxAge !== undefined) parts.push(`Max-Age=${Math.max(0, Math.floor(opts.maxAge))}`)
  return parts.join('; ')
}

export function isSecureRequest(request: Request) {
  // A Request's url is serialized (lower-case scheme): no need to parse it on every cookie read.
  return request.url.startsWith('https:')
}

/** `__Host-` prefix where the browser allows it (https), plain name on http dev hosts. */
export function cookieName(base: string, request: Request) {
  return isSecureRequest(request) ? `__Host-${base}` : base
}
