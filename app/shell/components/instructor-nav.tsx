// The instructor panel's navigation, shown at the top of every /home page.
import { NavLink } from '@remix-run/react'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'

const LINKS = [
  { to: '/home', key: 'instructor.nav.dashboard', end: true },
  { to: '/home/courses', key: 'instructor.nav.courses' },
  { to: '/home/products', key: 'instructor.nav.products' },
  { to: '/home/students', key: 'instructor.nav.students' },
  { to: '/home/leads', key: 'instructor.nav.leads' },
  { to: '/home/articles', key: 'instructor.nav.articles' },
  { to: '/home/subpages', key: 'instructor.nav.subpages' },
  { to: '/home/videos', key: 'instructor.nav.videos' },
  { to: '/home/files', key: 'instructor.nav.files' },
  { to: '/home/comments', key: 'instructor.nav.comments' },
  { to: '/home/community', key: 'community_admin.nav' },
  { to: '/home/reviews', key: 'instructor.nav.reviews' },
  { to: '/home/surveys', key: 'instructor.nav.surveys' },
  { to: '/home/notifications', key: 'instructor.nav.notifications' },
  { to: '/home/transactions', key: 'instructor.nav.transactions' },
  { to: '/home/balance', key: 'instructor.nav.balance' },
  { to: '/home/promo-codes', key: 'instructor.nav.promo_codes' },
  { to: '/home/settings/payments', key: 'instructor.nav.payments' },
  { to: '/home/integrations', key: 'integrations.nav' },
  { to: '/home/webhooks', key: 'webhooks.title' },
  { to: '/home/settings/page', key: 'instructor.nav.page' },
  { to: '/home/settings/domain', key: 'instructor.nav.domain' },
] as const

export function InstructorNav() {
  const t = useT()
  return (
    <nav aria-label={t('instructor.nav.label')} className="-mx-1 overflow-x-auto border-b border-slate-200 pb-2" data-instructor-nav>
      <ul className="flex gap-1 whitespace-nowrap">
        {LINKS.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={'end' in link ? link.end : false}
              className={({ isActive }) =>
                cx('inline-block rounded-md px-3 py-1.5 text-sm font-medium', isActive ? 'bg-brand-50 text-brand-800' : 'text-slate-600 hover:bg-slate-100 hover:text-slate-900')
              }
            >
              {t(link.key)}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  )
}
