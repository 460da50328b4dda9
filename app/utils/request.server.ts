import type { AppLoadContext } from '@remix-run/cloudflare'
import { getTranslator, isLocale, negotiateLocale, type Locale } from '#app/i18n/i18n.ts'
import { parseCookies } from './cookies.server.ts'

export const LANG_COOKIE = 'lang'

/** The school's page language decides on a school; the platform follows the visitor. */
export function getLocale(request: Request, context: AppLoadContext): Locale {
  if (context.site.kind === 'school') return context.site.tenant.language
  const fromCookie = parseCookies(request.headers.get('Cookie'))[LANG_COOKIE]
  if (isLocale(fromCookie)) return fromCookie
  return negotiateLocale(request.headers.get('Accept-Language'))
}

export function getT(request: Request, context: AppLoadContext) {
  return getTranslator(getLocale(request, context))
}

export function notFound(): never {
  throw new Response('Not Found', { status: 404 })
}

/** Routes of a school: on any other host they do not exist. */
export function requireSchool(context: AppLoadContext) {
  if (context.site.kind !== 'school') notFound()
  return context.site.tenant
}

/** Routes of the platform site only. */
export function requirePlatform(context: AppLoadContext) {
  if (context.site.kind !== 'platform') notFound()
}

export function clientIp(request: Request) {
  // Set by Cloudflare's edge (and overwritten there), not a client-controlled forwarding header.
  return request.headers.get('CF-Connecting-IP') ?? 'local'
}

/** Absolute URL of a school's platform address, keeping this request's scheme and port. */
export function schoolUrl(request: Request, platformHost: string, slug: string, path = '/') {
  const url = new URL(request.url)
  return `${url.protocol}//${slug}.${platformHost}${url.port ? `:${url.port}` : ''}${path}`
}

/** The loader of a route that only takes form posts: a GET of it does not exist. */
export async function actionOnlyLoader(): Promise<never> {
  notFound()
}
