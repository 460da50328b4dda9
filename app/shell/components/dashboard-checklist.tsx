// The dashboard's setup checklist (issue 23 item 2): six steps read from the school's real state
// (app/models/dashboard.server.ts), each linking to where it is done. A step's state is shown by
// its mark and spoken as part of its link; once every step is done the list folds into one line
// (a <details>, so it opens again without JavaScript).
import { Link } from '@remix-run/react'
import type { PageField, SetupStep } from '#app/models/dashboard.server.ts'
import { cx } from '#app/components/ui.tsx'
import { useT } from '#app/utils/i18n-react.ts'

/** Where each step is done, in the order a new creator meets them. */
const STEP_LINKS: Record<SetupStep, string> = {
  page: '/home/settings/page',
  // The kind chooser: /home/products/new needs ?kind= (404 without it).
  product: '/home/products',
  lecture: '/home/courses',
  payments: '/home/settings/payments',
  domain: '/home/settings/domain',
  sale: '/',
}
const STEPS = Object.keys(STEP_LINKS) as SetupStep[]

/** The page-settings form's own labels for the fields the page step still needs. */
const FIELD_LABELS: Record<PageField, string> = {
  authorName: 'page_settings.field.author',
  bio: 'page_settings.field.bio',
  contactEmail: 'page_settings.field.contact_email',
  avatar: 'page_settings.avatar.label',
}

function StepMark({ done, n }: { done: boolean; n: number }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        'flex size-7 shrink-0 items-center justify-center rounded-full border-2 text-xs font-semibold',
        done ? 'border-emerald-600 bg-emerald-600 text-white' : 'border-slate-300 bg-white text-slate-500',
      )}
    >
      {done ? (
        <svg viewBox="0 0 16 16" className="size-4" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round">
          <path d="M3.5 8.5l3 3 6-7" />
        </svg>
      ) : (
        n
      )}
    </span>
  )
}

function Steps({ setup, missingPage }: { setup: Record<SetupStep, boolean>; missingPage: PageField[] }) {
  const t = useT()
  return (
    <ol className="mt-4 divide-y divide-slate-100" aria-label={t('dashboard.setup.title')}>
      {STEPS.map((step, i) => {
        const done = setup[step]
        const link = (
          <>
            <span className="sr-only">{`${t(done ? 'dashboard.setup.done' : 'dashboard.setup.todo')} `}</span>
            {t(`dashboard.setup.step.${step}`)}
          </>
        )
        const className = cx('hover:underline', done ? 'text-slate-500' : 'font-semibold text-brand-700')
        return (
          <li key={step} className="flex gap-3 py-3" data-setup-step={step} data-step-done={done ? 'true' : 'false'}>
            <StepMark done={done} n={i + 1} />
            <div className="min-w-0">
              {/* The storefront is another part of the app: a full page load, not a client navigation. */}
              {step === 'sale' ? (
                <a className={className} href={STEP_LINKS[step]}>
                  {link}
                </a>
              ) : (
                <Link to={STEP_LINKS[step]} className={className}>
                  {link}
                </Link>
              )}
              {done ? null : <p className="mt-0.5 text-sm text-slate-600">{t(`dashboard.setup.step.${step}_hint`)}</p>}
              {step === 'page' && !done && missingPage.length ? (
                <p className="mt-0.5 text-sm text-amber-800" data-setup-missing>
                  {t('dashboard.setup.missing', { fields: missingPage.map((f) => t(FIELD_LABELS[f])).join(', ') })}
                </p>
              ) : null}
            </div>
          </li>
        )
      })}
    </ol>
  )
}

export function SetupChecklist({ setup, missingPage }: { setup: Record<SetupStep, boolean>; missingPage: PageField[] }) {
  const t = useT()
  const total = STEPS.length
  const done = STEPS.filter((step) => setup[step]).length
  if (done === total) {
    return (
      <details className="rounded-xl border border-emerald-200 bg-emerald-50 px-6 py-3" data-setup-checklist="complete">
        <summary className="cursor-pointer text-sm font-semibold text-emerald-900" data-setup-progress>
          {t('dashboard.setup.complete', { done, total })}
        </summary>
        <Steps setup={setup} missingPage={missingPage} />
      </details>
    )
  }
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm" aria-labelledby="setup-title" data-setup-checklist="open">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id="setup-title" className="text-lg font-semibold">
          {t('dashboard.setup.title')}
        </h2>
        <p className="text-sm font-medium text-slate-600" data-setup-progress>
          {t('dashboard.setup.progress', { done, total })}
        </p>
      </div>
      <div className="mt-3 h-2 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
        <div className="h-full rounded-full bg-emerald-600" style={{ width: `${Math.round((done / total) * 100)}%` }} />
      </div>
      <Steps setup={setup} missingPage={missingPage} />
    </section>
  )
}
