// The school's legal pages (issue 23 §9): /terms and /privacy show the school's own Markdown, or
// the template in the school's language when it saved none; always sanitized (renderMarkdown).
import { data, type AppLoadContext, type HeadersFunction, type LoaderFunctionArgs } from '@remix-run/cloudflare'
import { pageCacheControl } from '#app/domain/seo.ts'
import type { SchoolTenant } from '#app/domains/site.server.ts'
import { getTenantLegal } from '#app/models/school-settings.server.ts'
import { renderMarkdown } from '#app/utils/markdown.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { canonicalUrl, storefrontViewer } from './seo.server.ts'
import { legalFacts, legalTemplate, type LegalKind } from './legal-templates.ts'

/** The Markdown a page shows now, and whether it is the template. */
export async function legalMarkdown(context: AppLoadContext, tenant: Pick<SchoolTenant, 'id' | 'language' | 'name' | 'contactEmail'>, kind: LegalKind) {
  const settings = await getTenantLegal(context.db, tenant.id)
  if (!settings) return null
  const row = { ...settings, name: tenant.name, language: tenant.language, contactEmail: tenant.contactEmail }
  const own = (kind === 'terms' ? row.termsMd : row.privacyMd).trim()
  return { markdown: own || legalTemplate(kind, tenant.language, legalFacts(row)), template: !own, row }
}

export async function legalPage(context: AppLoadContext, tenant: Pick<SchoolTenant, 'id' | 'language' | 'name' | 'contactEmail'>, kind: LegalKind) {
  const page = await legalMarkdown(context, tenant, kind)
  return page ? { html: renderMarkdown(page.markdown), template: page.template } : null
}

/** The loader of /terms and /privacy: the page's HTML, its SEO and the public page cache's header. */
export async function loadLegalPage({ request, context }: LoaderFunctionArgs, kind: LegalKind) {
  const { tenant, viewer } = await storefrontViewer(request, context)
  const page = await legalPage(context, tenant, kind)
  if (!page) notFound()
  const title = getT(request, context)(kind === 'terms' ? 'legal.terms' : 'legal.privacy')
  const seo = {
    title: `${title} · ${tenant.name}`,
    description: title,
    url: canonicalUrl(request, context, `/${kind}`),
    image: null,
    type: 'website' as const,
    siteName: tenant.name,
    locale: tenant.language,
  }
  return data({ seo, html: page.html }, { headers: { 'Cache-Control': pageCacheControl({ signedIn: viewer !== null, now: Date.now() }) } })
}

/** Both pages pass the loader's Cache-Control on, so the edge page cache may keep them. */
export const legalPageHeaders: HeadersFunction = ({ loaderHeaders }) => {
  const cache = loaderHeaders.get('Cache-Control')
  return cache ? { 'Cache-Control': cache } : new Headers()
}
