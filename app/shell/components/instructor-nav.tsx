// The instructor panel's chrome (issue 23): a grouped sidebar on wide screens, the same links in a
// disclosure menu on phones. Rendered by the root layout around every /home page for staff, so
// pages never include it themselves. <details> opens and closes without JavaScript.
import { NavLink, useLocation } from '@remix-run/react'
import type { ReactNode } from 'react'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'

type NavItem = { to: string; key: string; end?: boolean }
type NavGroup = { key: string; items: NavItem[] }

export const INSTRUCTOR_NAV: NavGroup[] = [
  { key: 'instructor.nav.group.overview', items: [{ to: '/home', key: 'instructor.nav.dashboard', end: true }, { to: '/home/notifications', key: 'instructor.nav.notifications' }, { to: '/home/stats', key: 'instructor.nav.stats' }] },
  {
    key: 'instructor.nav.group.content',
    items: [
      { to: '/home/courses', key: 'instructor.nav.courses' },
      { to: '/home/articles', key: 'instructor.nav.articles' },
      { to: '/home/videos', key: 'instructor.nav.videos' },
      { to: '/home/files', key: 'instructor.nav.files' },
      { to: '/home/exams', key: 'instructor.nav.exams' },
      { to: '/home/certificates', key: 'instructor.nav.certificates' },
    ],
  },
  {
    key: 'instructor.nav.group.sell',
    items: [
      { to: '/home/products', key: 'instructor.nav.products' },
      { to: '/home/subpages', key: 'instructor.nav.subpages' },
      { to: '/home/promo-codes', key: 'instructor.nav.promo_codes' },
      { to: '/home/partners', key: 'instructor.nav.partners' },
    ],
  },
  {
    key: 'instructor.nav.group.students',
    items: [
      { to: '/home/students', key: 'instructor.nav.students' },
      { to: '/home/leads', key: 'instructor.nav.leads' },
      { to: '/home/comments', key: 'instructor.nav.comments' },
      { to: '/home/reviews', key: 'instructor.nav.reviews' },
      { to: '/home/surveys', key: 'instructor.nav.surveys' },
      { to: '/home/community', key: 'community_admin.nav' },
    ],
  },
  {
    key: 'instructor.nav.group.money',
    items: [
      { to: '/home/transactions', key: 'instructor.nav.transactions' },
      { to: '/home/shipping', key: 'instructor.nav.shipping' },
      { to: '/home/balance', key: 'instructor.nav.balance' },
      { to: '/home/settings/payments', key: 'instructor.nav.payments' },
    ],
  },
  {
    key: 'instructor.nav.group.settings',
    items: [
      { to: '/home/settings/page', key: 'instructor.nav.page' },
      { to: '/home/settings/domain', key: 'instructor.nav.domain' },
      { to: '/home/settings/legal', key: 'instructor.nav.legal' },
      { to: '/home/integrations', key: 'integrations.nav' },
      { to: '/home/webhooks', key: 'webhooks.title' },
      { to: '/home/audit', key: 'audit.title' },
      { to: '/home/settings/data', key: 'school_data.nav' },
    ],
  },
]

/** Whether this path is an instructor panel page (the root layout wraps it for staff). */
export const isInstructorPath = (pathname: string) => pathname === '/home' || pathname.startsWith('/home/')

function isCurrent(item: NavItem, pathname: string) {
  return item.end ? pathname === item.to || pathname === `${item.to}/` : pathname === item.to || pathname.startsWith(`${item.to}/`)
}

function NavGroups({ pathname, idPrefix }: { pathname: string; idPrefix: string }) {
  const t = useT()
  return (
    <div className="space-y-4">
      {INSTRUCTOR_NAV.map((group) => (
        <div key={group.key}>
          <p className="px-3 text-xs font-semibold tracking-wider text-slate-500 uppercase" id={`${idPrefix}-${group.key.split('.').pop()}`}>
            {t(group.key)}
          </p>
          <ul className="mt-1 space-y-0.5" aria-labelledby={`${idPrefix}-${group.key.split('.').pop()}`}>
            {group.items.map((item) => {
              const current = isCurrent(item, pathname)
              return (
                <li key={item.to}>
                  {/* aria-current marks the section a nested page belongs to, not only exact matches. */}
                  <NavLink
                    to={item.to}
                    end={item.end ?? false}
                    aria-current={current ? 'page' : undefined}
                    className={cx('block rounded-md px-3 py-1.5 text-sm font-medium', current ? 'bg-brand-50 text-brand-800' : 'text-slate-700 hover:bg-slate-100 hover:text-slate-900')}
                  >
                    {t(item.key)}
                  </NavLink>
                </li>
              )
            })}
          </ul>
        </div>
      ))}
    </div>
  )
}

export function InstructorLayout({ children }: { children: ReactNode }) {
  const t = useT()
  const { pathname } = useLocation()
  const current = INSTRUCTOR_NAV.flatMap((g) => g.items).find((item) => isCurrent(item, pathname))
  return (
    <div className="lg:grid lg:grid-cols-[13rem_minmax(0,1fr)] lg:gap-8">
      {/* Phones and tablets: one disclosure button; display:none keeps only one nav in the accessibility tree. */}
      <details className="mb-6 rounded-lg border border-slate-200 bg-white lg:hidden" data-instructor-menu>
        <summary className="cursor-pointer px-4 py-2.5 text-sm font-semibold text-slate-800">
          {t('instructor.nav.menu')}
          {current ? <span className="font-normal text-slate-500"> · {t(current.key)}</span> : null}
        </summary>
        <nav aria-label={t('instructor.nav.label')} className="border-t border-slate-200 p-2" data-instructor-nav>
          <NavGroups pathname={pathname} idPrefix="menu-nav" />
        </nav>
      </details>
      <nav aria-label={t('instructor.nav.label')} className="hidden lg:block" data-instructor-nav>
        <div className="sticky top-4">
          <NavGroups pathname={pathname} idPrefix="side-nav" />
        </div>
      </nav>
      <div className="min-w-0">{children}</div>
    </div>
  )
}
