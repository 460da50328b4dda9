// /privacy: the school's privacy policy (issue 23 §9), at a stable path the checkout links to. The
// school's own Markdown or the template in its language (app/storefront/legal.server.ts); the same
// for every visitor, so it is cached like the other public pages (content version, ADR 015).
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useLoaderData } from '@remix-run/react'
import { seoMeta } from '#app/domain/seo.ts'
import { LegalPage } from '#app/storefront/components/legal-page.tsx'
import { legalPageHeaders, loadLegalPage } from '#app/storefront/legal.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => (data ? seoMeta(data.seo) : [])

export const headers = legalPageHeaders

export const loader = (args: LoaderFunctionArgs) => loadLegalPage(args, 'privacy')

export default function PrivacyRoute() {
  return <LegalPage kind="privacy" html={useLoaderData<typeof loader>().html} />
}
