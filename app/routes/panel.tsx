import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Link, useFetcher, useLoaderData } from '@remix-run/react'
import { MyFiles } from '#app/students/components/panel-files.tsx'
import { ConsultationsSection, ContinueCard, CoursesSection, EventsSection, MembershipsSection, PanelEmpty, PanelLinkList, PhysicalSection } from '#app/students/components/panel-sections.tsx'
import { SiteSurvey } from '#app/engagement/components/site-survey.tsx'
import { Button, Card, PageTitle } from '#app/components/ui.tsx'
import { membershipBillingView } from '#app/domain/billing-view.ts'
import { mediaOrigins } from '#app/media/origins.server.ts'
import { listSeatPurchasesForUser } from '#app/models/access-invitation.server.ts'
import { listIssuedInvoicesForUser } from '#app/models/invoice.server.ts'
import { listUserSessions } from '#app/models/session.server.ts'
import { listReadableTopics } from '#app/models/community.server.ts'
import { isPanelEmpty, loadStudentPanel } from '#app/models/student-panel.server.ts'
import { getActiveSurveyId } from '#app/models/survey.server.ts'
import { requireUser } from '#app/auth/auth.server.ts'
import { certificateOffers } from '#app/certificates/certificates.server.ts'
import { PanelCertificates } from '#app/certificates/components/certificate-offers.tsx'
import { formatDate, fromNow } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { getLocale, getT, requireSchool } from '#app/utils/request.server.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

/** A live event's start in its own time zone (UTC when it has none or an unknown one). */
function formatEventStart(at: number, locale: 'en' | 'pl', timeZone: string | null) {
  const format = (zone: string) => new Intl.DateTimeFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { dateStyle: 'full', timeStyle: 'short', timeZone: zone }).format(at)
  try {
    return format(timeZone ?? 'UTC')
  } catch {
    return format('UTC')
  }
}

/** Only web links are shown as join links. */
const webUrl = (value: string | null) => (value && /^https?:\/\//i.test(value) ? value : null)

export async function loader({ request, context }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  const user = await requireUser(request, context)
  const now = Date.now()
  const locale = getLocale(request, context)
  const date = (ms: number) => formatDate(ms, locale)
  const [panel, sessions, surveyId, invoices, seatPurchases, topics, certificates] = await Promise.all([
    loadStudentPanel(context.db, tenant.id, { id: user.id, role: user.role }, now),
    listUserSessions(context.db, tenant.id, user.id),
    getActiveSurveyId(context.db, tenant.id),
    listIssuedInvoicesForUser(context.db, tenant.id, user.id),
    listSeatPurchasesForUser(context.db, tenant.id, user.id),
    listReadableTopics(context.db, tenant.id, { id: user.id, role: user.role }, now),
    // Issue 24: a certificate per course with certificates on (an eligible one is issued here, once).
    certificateOffers(context.db, context.cloudflare.env, tenant.id, user.id),
  ])
  const media = mediaOrigins(context.cloudflare.env, request).mediaOrigin
  return {
    title: getT(request, context)('panel.title'),
    user: { name: user.name },
    school: tenant.name,
    certificates,
    now,
    surveyId,
    empty: isPanelEmpty(panel),
    continue: panel.continue
      ? {
          href: `/${panel.continue.courseSlug}/watch/${panel.continue.lectureId}`,
          courseTitle: panel.continue.courseTitle,
          lectureTitle: panel.continue.lectureTitle,
          viewed: fromNow(panel.continue.lastViewedAt, locale, now),
        }
      : null,
    courses: panel.courses.map((c) => ({
      id: c.id,
      title: c.title,
      slug: c.slug,
      coverUrl: c.coverPath ? `${media}/${c.coverPath}` : null,
      status: c.status,
      done: c.done,
      total: c.total,
      percent: c.percent,
      started: c.lastViewedAt !== null || c.done > 0,
      accessUntil: c.status === 'active' && c.accessEndsAt !== null ? date(c.accessEndsAt) : null,
      accessFrom: c.accessStartsAt !== null ? date(c.accessStartsAt) : null,
      endedOn: c.status === 'expired' && c.accessEndsAt !== null ? date(c.accessEndsAt) : null,
      via: c.via,
    })),
    memberships: panel.memberships.map((m) => ({
      id: m.id,
      title: m.title,
      slug: m.slug,
      status: m.status,
      expiresOn: m.expiresAt !== null ? date(m.expiresAt) : null,
      startsOn: date(m.startsAt),
      lifetime: m.lifetime,
      grantsAll: m.grantsAll,
      includes: m.includes,
      billing: membershipBillingView(m.subscription, date),
    })),
    fileProducts: panel.fileProducts,
    events: panel.events.map((e) => ({
      id: e.id,
      title: e.title,
      slug: e.slug,
      status: e.status,
      when: e.startsAt !== null ? formatEventStart(e.startsAt, locale, e.timezone) : null,
      zone: e.timezone,
      relative: e.startsAt !== null ? fromNow(e.startsAt, locale, now) : null,
      upcoming: e.startsAt !== null && e.startsAt >= now,
      joinUrl: e.status === 'active' ? webUrl(e.joinUrl) : null,
    })),
    consultations: panel.consultations.map((c) => ({ id: c.id, title: c.title, slug: c.slug, status: c.status, minutes: c.minutes, since: date(c.since) })),
    // Paid physical orders with their shipping state (issue 24 item 4); only web links as tracking links.
    physical: panel.physical.map((p) => ({
      id: p.id,
      title: p.title,
      slug: p.slug,
      status: p.status,
      since: date(p.since),
      orders: p.orders.map((o) => ({
        id: o.id,
        state: o.state,
        ordered: date(o.createdAt),
        quantity: o.quantity,
        carrier: o.carrier,
        trackingNumber: o.trackingNumber,
        trackingUrl: webUrl(o.trackingUrl),
        shippedOn: o.shippedAt !== null ? date(o.shippedAt) : null,
        deliveredOn: o.deliveredAt !== null ? date(o.deliveredAt) : null,
        lockerCode: o.lockerCode,
      })),
    })),
    seats: seatPurchases.map((p) => ({ href: `/panel/seats/${p.hash}`, productTitle: p.productTitle, left: Math.max(0, p.quantity - p.invited) })),
    invoices: invoices.map((i) => ({ href: i.href, number: i.number, productTitle: i.productTitle, on: i.completedAt !== null ? date(i.completedAt) : null })),
    sessions: sessions.map((s) => ({ ...s, current: s.id === user.sessionId })),
    communityTopics: topics.map((topic) => ({ href: `/community/topics/${topic.id}`, title: topic.title })),
  }
}

function describeDevice(userAgent: string | null) {
  if (!userAgent) return null
  const browser = /Firefox\//.test(userAgent) ? 'Firefox' : /Edg\//.test(userAgent) ? 'Edge' : /Chrome\//.test(userAgent) ? 'Chrome' : /Safari\//.test(userAgent) ? 'Safari' : null
  const os = /Windows/.test(userAgent) ? 'Windows' : /Android/.test(userAgent) ? 'Android' : /iPhone|iPad/.test(userAgent) ? 'iOS' : /Mac OS X/.test(userAgent) ? 'macOS' : /Linux/.test(userAgent) ? 'Linux' : null
  return [browser, os].filter(Boolean).join(' · ') || null
}

function SessionRow({ session, now }: { session: ReturnType<typeof useLoaderData<typeof loader>>['sessions'][number]; now: number }) {
  const t = useT()
  const locale = useLocale()
  const fetcher = useFetcher()
  const busy = fetcher.state !== 'idle'
  return (
    <li className="flex flex-wrap items-center justify-between gap-3 py-3" data-session-id={session.id}>
      <div>
        <p className="font-medium">
          {describeDevice(session.userAgent) ?? t('panel.sessions.unknown_device')}
          {session.current ? <span className="ml-2 rounded bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-800">{t('panel.sessions.current')}</span> : null}
        </p>
        <p className="text-sm text-slate-500">{t('panel.sessions.last_active', { when: fromNow(session.lastVerifiedAt, locale, now) })}</p>
      </div>
      <fetcher.Form method="post" action={`/panel/sessions/${session.id}`}>
        <Button type="submit" variant="secondary" disabled={busy}>
          {t('panel.sessions.revoke')}
        </Button>
      </fetcher.Form>
    </li>
  )
}

export default function PanelPage() {
  const data = useLoaderData<typeof loader>()
  const t = useT()
  return (
    <div className="space-y-8">
      <PageTitle subtitle={t('student_panel.subtitle', { school: data.school })}>{t('panel.hello', { name: data.user.name })}</PageTitle>
      <p>
        <Link to="/account" className="text-sm font-medium text-brand-700 hover:underline" data-account-link>
          {t('account.link')}
        </Link>
      </p>
      {data.continue ? <ContinueCard item={data.continue} /> : null}
      {data.empty ? <PanelEmpty /> : null}
      {data.courses.length || !data.empty ? <CoursesSection courses={data.courses} /> : null}
      <PanelCertificates offers={data.certificates} />
      {data.memberships.length || data.events.length || data.consultations.length || data.physical.length ? (
        <div className="grid gap-6 lg:grid-cols-2">
          {data.memberships.length ? <MembershipsSection memberships={data.memberships} /> : null}
          {data.events.length ? <EventsSection events={data.events} /> : null}
          {data.consultations.length ? <ConsultationsSection consultations={data.consultations} /> : null}
          {data.physical.length ? <PhysicalSection items={data.physical} /> : null}
        </div>
      ) : null}
      <MyFiles products={data.fileProducts} />
      {data.communityTopics.length ? (
        <div className="space-y-2" data-panel-community>
          <PanelLinkList id="panel-community" title={t('community.title')} items={data.communityTopics.map((topic) => ({ href: topic.href, label: t('community.panel.open'), text: topic.title }))} />
          <p className="text-sm">
            <Link to="/community" className="font-medium text-brand-700 hover:underline">
              {t('community.panel.all')}
            </Link>
          </p>
        </div>
      ) : null}
      {data.seats.length ? (
        <PanelLinkList id="panel-seats" data-panel-seats title={t('seats.panel.title')} items={data.seats.map((p) => ({ href: p.href, label: t('seats.title'), text: p.productTitle, note: t('seats.left', { count: p.left }) }))} />
      ) : null}
      {data.invoices.length ? (
        <PanelLinkList id="panel-invoices" data-panel-invoices document title={t('integrations.panel.title')} items={data.invoices.map((i) => ({ href: i.href, label: t('integrations.panel.open', { number: i.number }), text: i.productTitle, note: i.on }))} />
      ) : null}
      <Card aria-labelledby="panel-sessions">
        <h2 id="panel-sessions" className="text-lg font-semibold">
          {t('panel.sessions.title')}
        </h2>
        <p className="mt-1 text-sm text-slate-600">
          {t('panel.sessions.text')} {t('panel.sessions.count', { count: data.sessions.length })}
        </p>
        <ul className="mt-3 divide-y divide-slate-100">
          {data.sessions.map((s) => (
            <SessionRow key={s.id} session={s} now={data.now} />
          ))}
        </ul>
      </Card>
      <SiteSurvey surveyId={data.surveyId} />
    </div>
  )
}
