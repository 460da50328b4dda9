// Flash through a redirect cookie (issue 20, convention 3). A mutation redirects with
// `redirectWithFlash`; the root loader reads the message once (`readFlash`) and clears the cookie
// in the same answer, so a reload or a shared URL never repeats it. The cookie is HttpOnly and
// host-only; a forged one can only show its sender a catalogue message.
import { redirect } from '@remix-run/cloudflare'
import { cookieName, isSecureRequest, parseCookies, serializeCookie } from './cookies.server.ts'
import { FlashSchema, type Flash } from './flash.ts'

const FLASH_COOKIE = 'cf_flash'
/** Long enough for the redirect to be followed, short enough never to greet a later visit. */
const FLASH_MAX_AGE_S = 60

function encode(flash: Flash) {
  return btoa(String.fromCharCode(...new TextEncoder().encode(JSON.stringify(flash))))
}

function decode(value: string): Flash | null {
  try {
    const json = new TextDecoder().decode(Uint8Array.from(atob(value), (c) => c.charCodeAt(0)))
    const parsed = FlashSchema.safeParse(JSON.parse(json))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

export function flashCookie(request: Request, flash: Flash) {
  return serializeCookie(cookieName(FLASH_COOKIE, request), encode(FlashSchema.parse(flash)), { secure: isSecureRequest(request), maxAge: FLASH_MAX_AGE_S })
}

export function clearFlashCookie(request: Request) {
  return serializeCookie(cookieName(FLASH_COOKIE, request), '', { secure: isSecureRequest(request), maxAge: 0 })
}

/** The message left for this request, or null (absent, expired or not one of ours). */
export function readFlash(request: Request): Flash | null {
  const raw = parseCookies(request.headers.get('Cookie'))[cookieName(FLASH_COOKIE, request)]
  return raw ? decode(raw) : null
}

/**
 * A redirect to `to` (302 like Remix's `redirect`, unless `status` says otherwise) that leaves
 * `flash` for the page there: `{ done: 'created', message: 'promo.done.created' }`.
 */
export function redirectWithFlash(request: Request, to: string, flash: Flash, init: { status?: number; headers?: HeadersInit } = {}) {
  const headers = new Headers(init.headers)
  headers.append('Set-Cookie', flashCookie(request, flash))
  return redirect(to, { status: init.status ?? 302, headers })
}
