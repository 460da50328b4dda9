// /terms and /privacy (issue 23 §9): the school's sanitized legal text, with a link to the other page.
import { Link } from '@remix-run/react'
import { StorefrontMarkdown } from '#app/storefront/components/storefront-markdown.tsx'
import { useT } from '#app/utils/i18n-react.ts'

export function LegalPage({ kind, html }: { kind: 'terms' | 'privacy'; html: string }) {
  const t = useT()
  const other = kind === 'terms' ? 'privacy' : 'terms'
  return (
    <article className="mx-auto max-w-3xl space-y-6" data-legal-page={kind}>
      <StorefrontMarkdown html={html} />
      <nav aria-label={t('legal.footer')} className="border-t border-slate-200 pt-4 text-sm">
        <Link to={`/${other}`} className="font-medium text-brand-700 underline">
          {t(`legal.${other}`)}
        </Link>
      </nav>
    </article>
  )
}
