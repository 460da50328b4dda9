// The domains page (/home/settings/domain): the school's subdomain and custom domains with their
// DNS records, the steps each is at (polled while one is on its way), and the forms to add, check,
// make primary and remove. The route keeps the loader and the add action.
import { Form, Link, useNavigation, useRevalidator, useSearchParams } from '@remix-run/react'
import { useEffect, useState } from 'react'
import { Alert, Button, Card, cx, Field, PageTitle } from '#app/components/ui.tsx'
import type { DomainView } from '#app/domains/contract.ts'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { formatDateTime, fromNow } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export type DomainSettingsData = { port: string; domains: DomainView[]; serviceError: string | null; now: number }
/** A refused add: the field errors and the hostname sent. */
export type DomainSettingsAnswer = { errors?: FieldErrors; values?: FormValues } | undefined

const STEPS = ['pending_dns', 'pending_ownership', 'pending_certificate', 'active'] as const
const isPending = (d: DomainView) => d.kind === 'custom' && d.status !== 'active' && d.status !== 'failed'

function CopyButton({ value }: { value: string }) {
  const t = useT()
  const [copied, setCopied] = useState(false)
  return (
    <button
      type="button"
      className="whitespace-nowrap rounded border border-slate-300 px-2 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50"
      onClick={() => {
        void navigator.clipboard?.writeText(value).then(() => {
          setCopied(true)
          setTimeout(() => setCopied(false), 1500)
        })
      }}
    >
      {copied ? t('domains.copied') : t('domains.copy')}
    </button>
  )
}

function StatusBadge({ status }: { status: DomainView['status'] }) {
  const t = useT()
  const tone = status === 'active' ? 'bg-emerald-100 text-emerald-800' : status === 'failed' ? 'bg-red-100 text-red-800' : 'bg-amber-100 text-amber-800'
  return (
    <span className={cx('rounded px-2 py-0.5 text-sm font-semibold', tone)} data-domain-status={status}>
      {t(`domains.status.${status}`)}
    </span>
  )
}

function Steps({ status }: { status: DomainView['status'] }) {
  const t = useT()
  const reached = status === 'failed' ? -1 : STEPS.indexOf(status as (typeof STEPS)[number])
  return (
    <ol className="flex flex-wrap gap-2 text-xs" aria-label={t('domains.steps')}>
      {STEPS.map((step, i) => (
        <li
          key={step}
          aria-current={i === reached ? 'step' : undefined}
          className={cx('rounded-full px-3 py-1', i < reached || (i === reached && step === 'active') ? 'bg-emerald-100 text-emerald-800' : i === reached ? 'bg-brand-100 font-semibold text-brand-800' : 'bg-slate-100 text-slate-500')}
        >
          {i + 1}. {t(`domains.status.${step}`)}
        </li>
      ))}
    </ol>
  )
}

function DomainCard({ domain, port, now }: { domain: DomainView; port: string; now: number }) {
  const t = useT()
  const locale = useLocale()
  const busy = useNavigation().state !== 'idle'
  const action = `/home/settings/domain/${domain.id}`
  return (
    <Card className="space-y-4" data-domain={domain.hostname}>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <div>
          <h2 className="font-mono text-lg font-semibold">
            {domain.hostname}
            {port ? <span className="text-slate-400">:{port}</span> : null}
          </h2>
          {domain.isPrimary ? <span className="text-xs font-semibold uppercase text-brand-700">{t('domains.primary')}</span> : null}
        </div>
        <StatusBadge status={domain.status} />
      </div>
      <Steps status={domain.status} />
      <p className="text-sm text-slate-700">
        {domain.status === 'failed'
          ? t('domains.status.help.failed', { reason: t(domain.problem ?? 'domains.problem.timeout') })
          : t(`domains.status.help.${domain.status}`)}
        {isPending(domain) ? <span className="block text-slate-500">{t('domains.status.up_to')}</span> : null}
      </p>
      {domain.lastError ? <Alert tone="info">{t('domains.last_error', { error: domain.lastError })}</Alert> : null}
      {domain.records.length ? (
        <div>
          <h3 className="mb-2 text-sm font-semibold">{t('domains.records.title')}</h3>
          {domain.apex ? <p className="mb-2 text-sm text-slate-600">{t('domains.records.apex_hint', { hostname: domain.hostname })}</p> : null}
          {/* Small screens: one block per record instead of a cramped table. */}
          <ul className="space-y-3 sm:hidden">
            {domain.records.map((r) => (
              <li key={`${r.type}-${r.name}-${r.value}`} className="rounded-lg border border-slate-200 p-3 text-sm" data-record-type={r.type}>
                <p className="flex items-center justify-between gap-2">
                  <span className="font-mono font-semibold">{r.type}</span>
                  <span className="text-xs">
                    {r.seen === null ? null : r.seen ? <span className="text-emerald-700">✓ {t('domains.records.seen')}</span> : <span className="text-amber-700">{t('domains.records.missing')}</span>}
                  </span>
                </p>
                <p className="mt-1 text-xs text-slate-500">{t('domains.records.name')}</p>
                <p className="flex items-start justify-between gap-2 font-mono break-all">
                  {r.name} <CopyButton value={r.name} />
                </p>
                <p className="mt-1 text-xs text-slate-500">{t('domains.records.value')}</p>
                <p className="flex items-start justify-between gap-2 font-mono break-all">
                  {r.value} <CopyButton value={r.value} />
                </p>
                <p className="mt-1 text-xs text-slate-600">{t(`domains.records.purpose.${r.purpose}`)}</p>
              </li>
            ))}
          </ul>
          <div className="hidden sm:block">
            <DataTable
              rows={domain.records}
              rowKey={(r) => `${r.type}-${r.name}-${r.value}`}
              rowProps={(r) => ({ 'data-record-type': r.type })}
              columns={[
                { key: 'type', header: t('domains.records.type'), className: 'font-mono', cell: (r) => r.type },
                { key: 'name', header: t('domains.records.name'), className: 'font-mono break-all', cell: (r) => <>{r.name} <CopyButton value={r.name} /></> },
                { key: 'value', header: t('domains.records.value'), className: 'font-mono break-all', cell: (r) => <>{r.value} <CopyButton value={r.value} /></> },
                { key: 'purpose', header: t('domains.records.purpose'), className: 'text-slate-600', cell: (r) => t(`domains.records.purpose.${r.purpose}`) },
                {
                  key: 'seen',
                  header: t('domains.records.seen'),
                  srOnlyHeader: true,
                  className: 'text-xs',
                  cell: (r) => (r.seen === null ? null : r.seen ? <span className="text-emerald-700">✓ {t('domains.records.seen')}</span> : <span className="text-amber-700">{t('domains.records.missing')}</span>),
                },
              ]}
            />
          </div>
        </div>
      ) : null}
      {domain.lastCheckedAt ? (
        <p className="text-xs text-slate-500" title={formatDateTime(domain.lastCheckedAt)}>
          {t('domains.last_checked', { when: fromNow(domain.lastCheckedAt, locale, now) })}
        </p>
      ) : null}
      <div className="flex flex-wrap items-end gap-3">
        {domain.kind === 'custom' && domain.status !== 'active' ? (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value="check" />
            <Button type="submit" variant="secondary" disabled={busy}>
              {t('domains.check_again')}
            </Button>
          </Form>
        ) : null}
        {domain.status === 'active' ? (
          <Form method="post" action={action}>
            <input type="hidden" name="intent" value={domain.isPrimary ? 'unset_primary' : 'set_primary'} />
            <Button type="submit" variant="secondary" disabled={busy}>
              {t(domain.isPrimary ? 'domains.unset_primary' : 'domains.make_primary')}
            </Button>
          </Form>
        ) : null}
        {domain.kind === 'custom' ? (
          <Form method="post" action={action} className="flex flex-wrap items-end gap-2">
            <input type="hidden" name="intent" value="remove" />
            <label className="text-xs text-slate-600">
              <span className="block">{t('domains.remove_type')}</span>
              <input name="confirm" autoComplete="off" className="mt-1 w-28 rounded-md border border-slate-300 px-2 py-1.5 font-mono" aria-label={t('domains.remove_confirm', { hostname: domain.hostname })} />
            </label>
            <Button type="submit" variant="danger" disabled={busy}>
              {t('domains.remove')}
            </Button>
          </Form>
        ) : null}
      </div>
      {domain.events.length ? (
        <details className="text-sm">
          <summary className="cursor-pointer text-slate-600">{t('domains.history')}</summary>
          <ul className="mt-2 space-y-1 text-slate-600">
            {domain.events.map((e) => (
              <li key={`${e.createdAt}-${e.toStatus}`}>
                <span className="font-mono text-xs">{formatDateTime(e.createdAt)}</span> — {e.fromStatus ? `${t(`domains.status.${e.fromStatus}`)} → ` : ''}
                {t(`domains.status.${e.toStatus}`)}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </Card>
  )
}

/**
 * Which address is primary and what the others do, as server.ts does it: a GET on any other address
 * of the school is answered with a 301 to the primary, but only once the primary is active.
 */
function PrimarySummary({ domains, port }: { domains: DomainView[]; port: string }) {
  const t = useT()
  const show = (d: DomainView) => `${d.hostname}${port ? `:${port}` : ''}`
  const reachable = domains.filter((d) => d.kind === 'platform_subdomain' || d.status === 'active')
  const primary = domains.find((d) => d.isPrimary)
  const list = (items: DomainView[]) => items.map(show).join(', ')
  let text: string
  let state: 'redirect' | 'waiting' | 'none'
  if (primary && reachable.includes(primary)) {
    const others = reachable.filter((d) => d !== primary)
    state = 'redirect'
    text = others.length ? t('account.domain.redirects', { others: list(others), primary: show(primary) }) : t('account.domain.only', { primary: show(primary) })
  } else if (primary) {
    state = 'waiting'
    text = t('account.domain.waiting', { primary: show(primary), all: list(reachable) })
  } else {
    state = 'none'
    text = t('account.domain.no_primary', { all: list(reachable) })
  }
  return (
    <Card className="space-y-1" data-primary-summary={state}>
      <h2 className="text-lg font-semibold">{t('account.domain.title')}</h2>
      <p className="text-sm">
        {primary ? (
          <>
            <span className="text-slate-500">{t('account.domain.primary_is')}</span> <strong className="font-mono" data-primary-host>{show(primary)}</strong>
          </>
        ) : (
          t('account.domain.primary_none')
        )}
      </p>
      <p className="text-sm text-slate-700" data-primary-explained>
        {text}
      </p>
    </Card>
  )
}

export function DomainSettingsPage({ data, actionData }: { data: DomainSettingsData; actionData: DomainSettingsAnswer }) {
  const [params] = useSearchParams()
  const t = useT()
  const message = useFieldMessage()
  const revalidator = useRevalidator()
  const busy = useNavigation().state === 'submitting'
  const subdomain = data.domains.find((d) => d.kind === 'platform_subdomain')
  const custom = data.domains.filter((d) => d.kind === 'custom')
  const watching = custom.some(isPending)
  const errorKey = params.get('error')

  // Live status: while a domain is on its way, poll every 5 seconds.
  useEffect(() => {
    if (!watching) return
    const id = setInterval(() => {
      if (revalidator.state === 'idle' && document.visibilityState === 'visible') revalidator.revalidate()
    }, 5000)
    return () => clearInterval(id)
  }, [watching, revalidator])

  return (
    <div className="space-y-6">
      <Link to="/home" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('domains.back')}
      </Link>
      <PageTitle subtitle={t('domains.intro', { subdomain: subdomain ? `${subdomain.hostname}${data.port ? `:${data.port}` : ''}` : '' })}>{t('domains.title')}</PageTitle>
      {data.serviceError ? <Alert>{t(data.serviceError)}</Alert> : null}
      <FlashMessage />
      {errorKey ? <Alert>{t(errorKey.startsWith('domains.error.') ? errorKey : 'domains.error.provider')}</Alert> : null}
      {data.domains.length ? <PrimarySummary domains={data.domains} port={data.port} /> : null}
      {custom.length < 5 ? (
        <Card>
          <Form method="post" className="flex flex-wrap items-start gap-3" noValidate key={custom.length}>
            <Field
              className="min-w-64 flex-1"
              label={t('domains.add.label')}
              name="hostname"
              placeholder={t('domains.add.placeholder')}
              defaultValue={actionData?.values?.hostname}
              autoCapitalize="none"
              spellCheck={false}
              maxLength={400}
              hint={t('domains.add.hint')}
              error={actionData?.errors?.hostname}
            />
            <Button type="submit" className="mt-6" disabled={busy}>
              {t('domains.add.submit')}
            </Button>
          </Form>
          {actionData?.errors?.form ? <Alert>{message(actionData.errors.form)}</Alert> : null}
        </Card>
      ) : null}
      {custom.length === 0 ? <p className="text-slate-600">{t('domains.none')}</p> : null}
      {custom.map((d) => (
        <DomainCard key={d.id} domain={d} port={data.port} now={data.now} />
      ))}
      {subdomain ? (
        <Card className="space-y-2" data-domain={subdomain.hostname}>
          <p className="text-sm text-slate-500">{t('domains.your_subdomain')}</p>
          <div className="flex flex-wrap items-center justify-between gap-3">
            <span className="font-mono">
              {subdomain.hostname}
              {data.port ? `:${data.port}` : ''}
              {subdomain.isPrimary ? <span className="ml-2 text-xs font-semibold uppercase text-brand-700">{t('domains.primary')}</span> : null}
            </span>
            <Form method="post" action={`/home/settings/domain/${subdomain.id}`}>
              <input type="hidden" name="intent" value={subdomain.isPrimary ? 'unset_primary' : 'set_primary'} />
              <Button type="submit" variant="secondary">
                {t(subdomain.isPrimary ? 'domains.unset_primary' : 'domains.make_primary')}
              </Button>
            </Form>
          </div>
        </Card>
      ) : null}
    </div>
  )
}
