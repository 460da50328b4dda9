import { redirect, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { isLocale } from '#app/i18n/i18n.ts'
import { isSecureRequest, serializeCookie } from '#app/utils/cookies.server.ts'
import { LANG_COOKIE, requirePlatform } from '#app/utils/request.server.ts'
import { safeRedirect } from '#app/utils/validation.ts'

/** Platform language switcher (a school's language is the school's setting, not the visitor's). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  requirePlatform(context)
  const url = new URL(request.url)
  const lang = url.searchParams.get('lang')
  const to = safeRedirect(url.searchParams.get('redirectTo'), '/', request)
  if (!isLocale(lang)) return redirect(to)
  const cookie = serializeCookie(LANG_COOKIE, lang, { secure: isSecureRequest(request), maxAge: 365 * 24 * 3600, httpOnly: false })
  return redirect(to, { headers: { 'Set-Cookie': cookie } })
}
