// Pages answered by the worker entry before Remix runs: unknown host, suspended school, failed
// CSRF check. Self-contained HTML (no D1, no bundle), in the visitor's or school's language.
import { getTranslator, negotiateLocale, type Locale } from '#app/i18n/i18n.ts'
import { isDataRequest } from './security.server.ts'

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

export function statusPageLocale(request: Request): Locale {
  return negotiateLocale(request.headers.get('Accept-Language'))
}

function page(locale: Locale, status: number, title: string, body: string, extraHeaders: Record<string, string> = {}) {
  const html = `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;background:#f8fafc;color:#0f172a;display:grid;min-height:100vh;place-items:center}
main{max-width:34rem;padding:2rem;text-align:center}
h1{font-size:1.75rem;margin:0 0 .75rem}
p{color:#475569;line-height:1.6;margin:0 0 1rem}
a{color:#4338ca;font-weight:600}
.code{font-size:.875rem;letter-spacing:.1em;color:#64748b;margin-bottom:1rem}
</style>
</head>
<body><main><p class="code">${status}</p><h1>${escapeHtml(title)}</h1>${body}</main></body>
</html>`
  return new Response(html, {
    status,
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...extraHeaders },
  })
}

export function unknownHostPage(locale: Locale, hostname: string) {
  const t = getTranslator(locale)
  return page(locale, 404, t('status.unknown_host.title'), `<p>${escapeHtml(t('status.unknown_host.text', { host: hostname }))}</p>`)
}

export function suspendedSchoolPage(locale: Locale, schoolName: string) {
  const t = getTranslator(locale)
  return page(locale, 503, t('status.suspended.title'), `<p>${escapeHtml(t('status.suspended.text', { name: schoolName }))}</p>`, {
    'Retry-After': '3600',
  })
}

/**
 * A school moving between shards (ADR 033) takes no writes: reads go on from its old shard, every
 * mutation gets this 503 (JSON for script calls), and providers' notifications are retried later.
 */
export function movingSchoolResponse(request: Request, locale: Locale, schoolName: string) {
  const t = getTranslator(locale)
  const headers = { 'Retry-After': '120' }
  if (isDataRequest(request)) {
    return Response.json({ message: `${t('status.moving.title')}. ${t('status.moving.text', { name: schoolName })}` }, { status: 503, headers: { 'Cache-Control': 'no-store', ...headers } })
  }
  return page(locale, 503, t('status.moving.title'), `<p>${escapeHtml(t('status.moving.text', { name: schoolName }))}</p>`, headers)
}

/** An operator viewing the school as its owner (issue 27 §7) tried to change something: read-only. */
export function viewAsReadOnlyResponse(request: Request, locale: Locale) {
  const t = getTranslator(locale)
  if (isDataRequest(request)) return Response.json({ message: `${t('status.view_as.title')}. ${t('status.view_as.text')}` }, { status: 403, headers: { 'Cache-Control': 'no-store' } })
  return page(locale, 403, t('status.view_as.title'), `<p>${escapeHtml(t('status.view_as.text'))}</p><p><a href="/home">${escapeHtml(t('status.view_as.back'))}</a></p>`)
}

/** 419 as the seed's client expects it (seed 000 §7): JSON for script calls, a page otherwise. */
export function csrfFailedResponse(request: Request, locale: Locale) {
  const t = getTranslator(locale)
  if (isDataRequest(request)) {
    return Response.json({ message: t('error.session_expired'), redirectTo: '/login' }, { status: 419, headers: { 'Cache-Control': 'no-store' } })
  }
  return page(
    locale,
    419,
    t('error.session_expired'),
    `<p>${escapeHtml(t('error.session_expired_reload'))}</p><p><a href="/login">${escapeHtml(t('error.session_expired_login'))}</a></p>`,
  )
}
