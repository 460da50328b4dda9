// Previous / "Page x of y" / Next links under the instructor panel's lists. Plain links, so paging
// works without JavaScript; renders nothing for a single page.
import { Link } from '@remix-run/react'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from './ui.tsx'

export function Pager({ page, pageCount, href, label, className }: { page: number; pageCount: number; href: (page: number) => string; label?: string; className?: string }) {
  const t = useT()
  if (pageCount <= 1) return null
  const link = 'font-semibold text-brand-700 hover:underline'
  return (
    <nav aria-label={label ?? t('students.pager.label')} className={cx('flex items-center justify-between text-sm', className)} data-pager>
      {page > 1 ? (
        <Link to={href(page - 1)} rel="prev" className={link}>
          ← {t('students.pager.previous')}
        </Link>
      ) : (
        <span />
      )}
      <span className="text-slate-600">{t('students.pager.page', { page, pages: pageCount })}</span>
      {page < pageCount ? (
        <Link to={href(page + 1)} rel="next" className={link}>
          {t('students.pager.next')} →
        </Link>
      ) : (
        <span />
      )}
    </nav>
  )
}
