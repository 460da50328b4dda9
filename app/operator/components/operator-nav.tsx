// The operator console's navigation: every page of the console (issue 27).
import { NavLink } from '@remix-run/react'
import { useT } from '#app/utils/i18n-react.ts'
import { cx } from '#app/components/ui.tsx'

const LINKS = [
  { to: '/operator', key: 'operator.nav.dashboard', end: true },
  { to: '/operator/schools', key: 'operator.nav.schools', end: false },
  { to: '/operator/domains', key: 'operator.nav.domains', end: false },
  { to: '/operator/withdrawals', key: 'operator.nav.withdrawals', end: false },
  { to: '/operator/payments', key: 'operator.nav.payments', end: false },
  { to: '/operator/dead-letters', key: 'operator.nav.dead_letters', end: false },
  { to: '/operator/audit', key: 'audit.title', end: false },
  { to: '/operator/operators', key: 'operator.nav.operators', end: false },
] as const

export function OperatorNav() {
  const t = useT()
  return (
    <nav aria-label={t('operator.nav.label')} className="border-b border-slate-200 pb-2" data-operator-nav>
      <ul className="flex flex-wrap gap-1">
        {LINKS.map((link) => (
          <li key={link.to}>
            <NavLink
              to={link.to}
              end={link.end}
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
