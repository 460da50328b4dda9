// The sections of the student panel /panel (issue 7 item 1): continue where you left off, courses
// with progress, memberships, live events, consultations, physical products and the empty state.
// Dates arrive formatted by the loader (in the school's language; events in their own time zone),
// so the server's and the browser's clocks and zones never disagree on hydration.
import { Link } from '@remix-run/react'
import type { ReactNode } from 'react'
import { MembershipBilling } from '#app/membership/components/membership-billing.tsx'
import { Card, cx } from '#app/components/ui.tsx'
import type { MembershipBillingView } from '#app/domain/billing-view.ts'
import { useT } from '#app/utils/i18n-react.ts'

export type PanelStatus = 'active' | 'scheduled' | 'expired' | 'revoked'

export type ContinueView = { href: string; courseTitle: string; lectureTitle: string; viewed: string }
export type CourseView = {
  id: string
  title: string
  slug: string
  coverUrl: string | null
  status: PanelStatus
  done: number
  total: number
  percent: number
  started: boolean
  accessUntil: string | null
  accessFrom: string | null
  endedOn: string | null
  via: string[]
}
export type MembershipView = {
  id: string
  title: string
  slug: string
  status: PanelStatus
  expiresOn: string | null
  startsOn: string
  lifetime: boolean
  grantsAll: boolean
  includes: Array<{ id: string; title: string; slug: string; kind: string }>
  /** The subscription behind it (issue 8 item 6): status, renewal, card, cancel; absent when access was given without one. */
  billing?: MembershipBillingView | null
}
export type EventView = { id: string; title: string; slug: string; status: PanelStatus; when: string | null; zone: string | null; relative: string | null; upcoming: boolean; joinUrl: string | null }
export type ConsultationView = { id: string; title: string; slug: string; status: PanelStatus; minutes: number | null; since: string }
export type ShipmentView = {
  id: string
  state: 'ready' | 'shipped' | 'delivered'
  ordered: string
  quantity: number
  carrier: string | null
  trackingNumber: string | null
  trackingUrl: string | null
  shippedOn: string | null
  deliveredOn: string | null
  lockerCode: string | null
}
export type PhysicalView = { id: string; title: string; slug: string | null; status: PanelStatus; since: string; orders: ShipmentView[] }

const linkClass = 'rounded font-semibold text-brand-700 hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600'
export const buttonLinkClass =
  'inline-flex items-center justify-center rounded-md bg-brand-600 px-4 py-2 text-sm font-semibold text-white shadow-sm transition hover:bg-brand-700 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600 focus-visible:ring-offset-2'

export function StatusBadge({ status }: { status: PanelStatus }) {
  const t = useT()
  return (
    <span
      data-status={status}
      className={cx(
        'inline-flex shrink-0 items-center rounded-full px-2.5 py-0.5 text-xs font-semibold',
        status === 'active' && 'bg-emerald-100 text-emerald-800',
        status === 'scheduled' && 'bg-sky-100 text-sky-800',
        status === 'expired' && 'bg-slate-200 text-slate-700',
        status === 'revoked' && 'bg-red-100 text-red-800',
      )}
    >
      {t(`student_panel.status.${status}`)}
    </span>
  )
}

function SectionTitle({ id, children, count }: { id: string; children: ReactNode; count?: number }) {
  return (
    <h2 id={id} className="text-lg font-semibold text-slate-900">
      {children}
      {count !== undefined ? <span className="ml-2 text-sm font-normal text-slate-500">({count})</span> : null}
    </h2>
  )
}

export function ContinueCard({ item }: { item: ContinueView }) {
  const t = useT()
  return (
    <section aria-labelledby="panel-continue" className="rounded-xl border border-brand-100 bg-gradient-to-r from-brand-50 to-white p-5 shadow-sm sm:p-6" data-panel-continue>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        <div className="min-w-0">
          <h2 id="panel-continue" className="text-sm font-semibold uppercase tracking-wide text-brand-700">
            {t('student_panel.continue.title')}
          </h2>
          <p className="mt-1 text-slate-600" data-continue-course>
            {item.courseTitle}
          </p>
          <p className="mt-0.5 break-words text-lg font-semibold text-slate-900" data-continue-lecture>
            {item.lectureTitle}
          </p>
          <p className="mt-1 text-sm text-slate-500">{t('student_panel.continue.viewed', { when: item.viewed })}</p>
        </div>
        <Link to={item.href} className={cx(buttonLinkClass, 'w-full sm:w-auto')} aria-label={t('student_panel.continue.aria', { lecture: item.lectureTitle, course: item.courseTitle })} data-continue-link>
          {t('student_panel.continue.button')}
        </Link>
      </div>
    </section>
  )
}

function ProgressBar({ percent, label }: { percent: number; label: string }) {
  return (
    <div role="progressbar" aria-label={label} aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent} className="h-2 w-full overflow-hidden rounded-full bg-slate-200">
      <div className="h-full rounded-full bg-brand-600 transition-[width]" style={{ width: `${percent}%` }} />
    </div>
  )
}

function CourseCard({ course }: { course: CourseView }) {
  const t = useT()
  const open = course.status === 'active'
  const action = t(course.started ? 'student_panel.course.continue' : 'student_panel.course.start')
  const complete = course.total > 0 && course.done >= course.total
  return (
    <li className={cx('flex flex-col overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm', !open && 'opacity-80')} data-panel-course={course.slug} data-course-status={course.status}>
      <div className="aspect-[16/10] w-full overflow-hidden bg-gradient-to-br from-brand-50 to-brand-100">
        {course.coverUrl ? (
          <img src={course.coverUrl} alt="" width={1280} height={800} loading="lazy" decoding="async" className="size-full object-cover" />
        ) : (
          <div aria-hidden className="flex size-full items-center justify-center text-5xl font-extrabold text-brand-600/40">
            {course.title.trim().charAt(0).toUpperCase()}
          </div>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-3 p-5">
        <div className="flex items-start justify-between gap-2">
          <h3 className="text-base font-semibold leading-snug text-slate-900">
            <Link to={`/${course.slug}`} className="rounded hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
              {course.title}
            </Link>
          </h3>
          {open ? complete ? <span className="inline-flex shrink-0 rounded-full bg-emerald-100 px-2.5 py-0.5 text-xs font-semibold text-emerald-800">{t('student_panel.course.completed')}</span> : null : <StatusBadge status={course.status} />}
        </div>
        {course.via.length ? <p className="text-sm text-slate-500">{t('student_panel.course.via', { titles: course.via.join(', ') })}</p> : null}
        <div className="space-y-1.5" data-course-progress>
          {course.total > 0 ? (
            <>
              <ProgressBar percent={course.percent} label={t('student_panel.course.progress_label', { course: course.title })} />
              <p className="flex flex-wrap justify-between gap-x-3 text-sm text-slate-600">
                <span data-progress-count>{t('student_panel.course.progress', { done: course.done, count: course.total })}</span>
                <span data-progress-percent>{t('student_panel.course.percent', { percent: course.percent })}</span>
              </p>
            </>
          ) : (
            <p className="text-sm text-slate-500">{t('student_panel.course.no_lectures')}</p>
          )}
        </div>
        <div className="mt-auto flex flex-wrap items-center justify-between gap-3 pt-1">
          <p className="text-sm text-slate-500" data-course-access>
            {course.status === 'active' && course.accessUntil ? t('student_panel.course.access_until', { date: course.accessUntil }) : null}
            {course.status === 'scheduled' && course.accessFrom ? t('student_panel.course.access_from', { date: course.accessFrom }) : null}
            {course.status === 'expired' && course.endedOn ? t('student_panel.course.ended', { date: course.endedOn }) : null}
            {course.status === 'revoked' ? t('student_panel.course.denied') : null}
          </p>
          {open ? (
            <Link to={`/${course.slug}/watch`} className={buttonLinkClass} aria-label={t('student_panel.course.action_aria', { action, course: course.title })} data-course-watch>
              {action}
            </Link>
          ) : null}
        </div>
      </div>
    </li>
  )
}

export function CoursesSection({ courses }: { courses: CourseView[] }) {
  const t = useT()
  return (
    <section aria-labelledby="panel-courses" data-panel-courses>
      <SectionTitle id="panel-courses" count={courses.length}>
        {t('student_panel.courses.title')}
      </SectionTitle>
      {courses.length === 0 ? (
        <p className="mt-2 text-slate-600">{t('student_panel.courses.empty')}</p>
      ) : (
        <ul className="mt-4 grid gap-5 sm:grid-cols-2 lg:grid-cols-3">
          {courses.map((c) => (
            <CourseCard key={c.id} course={c} />
          ))}
        </ul>
      )}
    </section>
  )
}

function ProductRow({ title, slug, status, children, data }: { title: string; slug: string | null; status: PanelStatus; children: ReactNode; data: Record<string, string> }) {
  return (
    <li className="py-4 first:pt-2 last:pb-0" {...data}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 break-words font-semibold text-slate-900">
          {/* A bought product deleted since: its title without a link. */}
          {slug ? (
            <Link to={`/${slug}`} className="rounded hover:underline focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-600">
              {title}
            </Link>
          ) : (
            title
          )}
        </h3>
        <StatusBadge status={status} />
      </div>
      <div className="mt-1 space-y-1 text-sm text-slate-600">{children}</div>
    </li>
  )
}

export function MembershipsSection({ memberships }: { memberships: MembershipView[] }) {
  const t = useT()
  return (
    <Card aria-labelledby="panel-memberships" data-panel-memberships>
      <SectionTitle id="panel-memberships">{t('student_panel.memberships.title')}</SectionTitle>
      <ul className="divide-y divide-slate-100">
        {memberships.map((m) => (
          <ProductRow key={m.id} title={m.title} slug={m.slug} status={m.status} data={{ 'data-panel-membership': m.slug }}>
            <p data-membership-date>
              {m.status === 'active' ? (m.lifetime ? t('student_panel.membership.lifetime') : m.billing ? null : t('student_panel.membership.renews_or_ends', { date: m.expiresOn ?? '' })) : null}
              {m.status === 'scheduled' ? t('student_panel.membership.starts_on', { date: m.startsOn }) : null}
              {m.status === 'expired' && m.expiresOn ? t('student_panel.membership.ended_on', { date: m.expiresOn }) : null}
            </p>
            <div>
              <span className="font-medium text-slate-700">{t('student_panel.membership.includes')}: </span>
              {m.grantsAll ? (
                t('student_panel.membership.includes_all')
              ) : m.includes.length === 0 ? (
                t('student_panel.membership.includes_nothing')
              ) : (
                <ul className="inline">
                  {m.includes.map((p, i) => (
                    <li key={p.id} className="inline">
                      {i > 0 ? ', ' : null}
                      <Link to={`/${p.slug}`} className={linkClass}>
                        {p.title}
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </div>
            {m.billing ? <MembershipBilling billing={m.billing} /> : null}
          </ProductRow>
        ))}
      </ul>
    </Card>
  )
}

export function EventsSection({ events }: { events: EventView[] }) {
  const t = useT()
  return (
    <Card aria-labelledby="panel-events" data-panel-events>
      <SectionTitle id="panel-events">{t('student_panel.events.title')}</SectionTitle>
      <ul className="divide-y divide-slate-100">
        {events.map((e) => (
          <ProductRow key={e.id} title={e.title} slug={e.slug} status={e.status} data={{ 'data-panel-event': e.slug }}>
            {e.when ? (
              <p className="font-medium text-slate-800" data-event-when>
                {e.when}
              </p>
            ) : (
              <p>{t('student_panel.event.no_date')}</p>
            )}
            {e.zone ? <p>{t('student_panel.event.zone', { zone: e.zone })}</p> : null}
            {e.relative ? <p data-event-relative>{t(e.upcoming ? 'student_panel.event.starts' : 'student_panel.event.took_place', { when: e.relative })}</p> : null}
            {e.status !== 'active' ? (
              <p>{t('student_panel.event.no_access')}</p>
            ) : e.joinUrl ? (
              <p className="pt-1">
                <a href={e.joinUrl} target="_blank" rel="noopener noreferrer" className={buttonLinkClass} data-event-join>
                  {t('student_panel.event.join')}
                </a>
              </p>
            ) : (
              <p>{t('student_panel.event.no_link')}</p>
            )}
          </ProductRow>
        ))}
      </ul>
    </Card>
  )
}

export function ConsultationsSection({ consultations }: { consultations: ConsultationView[] }) {
  const t = useT()
  return (
    <Card aria-labelledby="panel-consultations" data-panel-consultations>
      <SectionTitle id="panel-consultations">{t('student_panel.consultations.title')}</SectionTitle>
      <ul className="divide-y divide-slate-100">
        {consultations.map((c) => (
          <ProductRow key={c.id} title={c.title} slug={c.slug} status={c.status} data={{ 'data-panel-consultation': c.slug }}>
            <p>
              {c.minutes ? `${t('student_panel.consultation.minutes', { count: c.minutes })} · ` : null}
              {t('student_panel.since', { date: c.since })}
            </p>
            {c.status === 'active' ? <p data-consultation-instructions>{t('student_panel.consultation.instructions')}</p> : null}
          </ProductRow>
        ))}
      </ul>
    </Card>
  )
}

/** One paid order's shipping, in words: ready, shipped (carrier, tracking) or delivered, and its parcel locker. */
function ShipmentLine({ order: o }: { order: ShipmentView }) {
  const t = useT()
  return (
    <li className="rounded-md bg-slate-50 px-3 py-2" data-shipment-state={o.state}>
      <p className="font-medium text-slate-700">
        {t('shipping.panel.order', { date: o.ordered })}
        {o.quantity > 1 ? ` · × ${o.quantity}` : null}
      </p>
      <p data-physical-shipping>
        {o.state === 'ready' ? t('shipping.panel.ready') : null}
        {o.state === 'shipped' ? t('shipping.panel.shipped', { carrier: o.carrier ?? '', date: o.shippedOn ?? '' }) : null}
        {o.state === 'delivered' ? t('shipping.panel.delivered', { date: o.deliveredOn ?? '' }) : null}
      </p>
      {o.state !== 'ready' && o.trackingNumber ? <p data-tracking-number>{t('shipping.panel.tracking_number', { number: o.trackingNumber })}</p> : null}
      {o.state === 'shipped' && o.trackingUrl ? (
        <p>
          <a href={o.trackingUrl} className={linkClass} rel="noopener noreferrer" target="_blank" data-tracking-url>
            {t('shipping.panel.track')}
          </a>
        </p>
      ) : null}
      {o.lockerCode ? <p data-locker-code>{t('shipping.panel.locker', { code: o.lockerCode })}</p> : null}
    </li>
  )
}

export function PhysicalSection({ items }: { items: PhysicalView[] }) {
  const t = useT()
  return (
    <Card aria-labelledby="panel-physical" data-panel-physical>
      <SectionTitle id="panel-physical">{t('student_panel.physical.title')}</SectionTitle>
      <ul className="divide-y divide-slate-100">
        {items.map((p) => (
          <ProductRow key={p.id} title={p.title} slug={p.slug} status={p.status} data={{ 'data-panel-physical-item': p.slug ?? p.id }}>
            <p>{t('student_panel.since', { date: p.since })}</p>
            {p.orders.length ? (
              <ul className="space-y-2">
                {p.orders.map((o) => (
                  <ShipmentLine key={o.id} order={o} />
                ))}
              </ul>
            ) : p.status === 'active' ? (
              <p data-physical-shipping>{t('student_panel.physical.shipping')}</p>
            ) : null}
          </ProductRow>
        ))}
      </ul>
    </Card>
  )
}

export function PanelEmpty() {
  const t = useT()
  return (
    <section aria-labelledby="panel-empty" className="rounded-xl border border-dashed border-slate-300 bg-white p-8 text-center" data-panel-empty>
      <h2 id="panel-empty" className="text-lg font-semibold text-slate-900">
        {t('student_panel.empty.title')}
      </h2>
      <p className="mx-auto mt-2 max-w-md text-slate-600">{t('student_panel.empty.text')}</p>
      <Link to="/courses" className={cx(buttonLinkClass, 'mt-5')} data-panel-browse>
        {t('student_panel.empty.browse')}
      </Link>
    </section>
  )
}

/**
 * A titled list of links (the access managers of multi-seat purchases, issued invoices). `document`
 * links are downloads: a full navigation, not the client router.
 */
export function PanelLinkList({ id, title, items, document = false, ...rest }: { id: string; title: string; items: Array<{ href: string; label: string; text: string; note?: string | null }>; document?: boolean } & Record<`data-${string}`, boolean>) {
  return (
    <Card aria-labelledby={id} {...rest}>
      <h2 id={id} className="text-lg font-semibold">
        {title}
      </h2>
      <ul className="mt-3 divide-y divide-slate-100 text-sm">
        {items.map((i) => (
          <li key={i.href} className="flex flex-wrap items-baseline justify-between gap-2 py-2">
            <span>
              {i.text}
              {i.note ? <span className="ml-2 text-slate-500">{i.note}</span> : null}
            </span>
            {document ? (
              <a href={i.href} className="font-medium text-brand-700 hover:underline">
                {i.label}
              </a>
            ) : (
              <Link to={i.href} className="font-medium text-brand-700 hover:underline">
                {i.label}
              </Link>
            )}
          </li>
        ))}
      </ul>
    </Card>
  )
}
