// The operator's picture of one school (issue 27 §2): owner and staff with the sign-in link button,
// counts, domains, integrations with their health, recent transactions and fee history. Read-only
// apart from the sign-in link form; the route loads the data and decides who may post.
import { Form } from '@remix-run/react'
import { Alert, Button, Card } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { formatDateTime } from '#app/utils/dates.ts'
import { useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney, formatMoneyInput } from '#app/utils/money.ts'
import type { FeeChange, RecentTransaction, SchoolCounts, SchoolDomain, SchoolIntegration, StaffMember } from '#app/models/school-overview.server.ts'

const when = (at: number | null | undefined, fallback: string) => (at ? formatDateTime(at) : fallback)

export type SignInLinkAnswer = { signInLink: 'throttled' | 'no_owner' | 'moving'; minutes: number }

export function SchoolStaffCard({ staff, canSignInLink, answer, busy }: { staff: StaffMember[]; canSignInLink: boolean; answer: SignInLinkAnswer | null; busy: boolean }) {
  const t = useT()
  return (
    <Card className="space-y-3" data-school-staff>
      <h2 className="text-lg font-semibold">{t('operator.school.staff.title')}</h2>
      {staff.length === 0 ? (
        <p className="text-slate-600">{t('operator.school.staff.empty')}</p>
      ) : (
        <DataTable
          caption={t('operator.school.staff.caption')}
          rows={staff}
          rowKey={(s) => s.id}
          rowProps={(s) => ({ 'data-staff': s.role })}
          columns={[
            { key: 'name', header: t('operator.school.staff.name'), cell: (s) => s.name },
            { key: 'email', header: t('operator.school.staff.email'), cell: (s) => <span className="font-mono text-xs">{s.email}</span> },
            { key: 'role', header: t('operator.school.staff.role'), cell: (s) => t(`operator.school.staff.role.${s.role}`) },
            { key: 'last', header: t('operator.school.staff.last_sign_in'), cell: (s) => when(s.lastSignInAt, t('operator.school.staff.never')), cellProps: () => ({ 'data-last-sign-in': '' }) },
          ]}
        />
      )}
      {answer ? (
        <div data-sign-in-link-refused={answer.signInLink}>
          <Alert>{answer.signInLink === 'throttled' ? t('operator.school.sign_in_link.throttled', { count: answer.minutes }) : t(`operator.school.sign_in_link.${answer.signInLink}`)}</Alert>
        </div>
      ) : null}
      {canSignInLink ? (
        <Form method="post" className="space-y-1">
          <input type="hidden" name="intent" value="sign_in_link" />
          <Button type="submit" variant="secondary" disabled={busy} aria-describedby="sign-in-link-hint">
            {t('operator.school.sign_in_link.send')}
          </Button>
          <p id="sign-in-link-hint" className="text-sm text-slate-600">
            {t('operator.school.sign_in_link.hint')}
          </p>
        </Form>
      ) : null}
    </Card>
  )
}

function formatBytes(bytes: number, locale: string) {
  const units = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const
  let value = bytes
  let i = 0
  while (value >= 1024 && i < units.length - 1) {
    value /= 1024
    i++
  }
  return new Intl.NumberFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { style: 'unit', unit: units[i], unitDisplay: 'short', maximumFractionDigits: 1 }).format(value)
}

export function SchoolCountsCard({ counts }: { counts: SchoolCounts }) {
  const t = useT()
  const locale = useLocale()
  const sales = [t('operator.school.counts.sales_count', { count: counts.sales30d.count }), ...counts.sales30d.amounts.map((a) => formatMoney(a.amount, a.currency, locale))].join(' · ')
  return (
    <Card data-school-counts>
      <h2 className="text-lg font-semibold">{t('operator.school.counts.title')}</h2>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
        <dt className="text-slate-500">{t('operator.school.counts.products')}</dt>
        <dd data-count="products">{counts.products}</dd>
        <dt className="text-slate-500">{t('operator.school.counts.students')}</dt>
        <dd data-count="students">{counts.students}</dd>
        <dt className="text-slate-500">{t('operator.school.counts.sales')}</dt>
        <dd data-count="sales">{sales}</dd>
        <dt className="text-slate-500">{t('operator.school.counts.storage')}</dt>
        <dd data-count="storage" data-bytes={counts.storageBytes}>
          {formatBytes(counts.storageBytes, locale)}
        </dd>
      </dl>
    </Card>
  )
}

/** A domain's problem is a catalogue key (domains.problem.*); anything else is shown as it was stored. */
const problemText = (t: ReturnType<typeof useT>, key: string) => (/^domains\.problem\.[a-z_]+$/.test(key) ? t(key) : key)

export function SchoolDomainsCard({ domains }: { domains: SchoolDomain[] }) {
  const t = useT()
  return (
    <Card data-school-domains>
      <h2 className="text-lg font-semibold">{t('operator.school.domains.title')}</h2>
      {domains.length === 0 ? (
        <p className="mt-2 text-slate-600">{t('operator.school.domains.empty')}</p>
      ) : (
        <div className="mt-3">
          <DataTable
            caption={t('operator.school.domains.caption')}
            rows={domains}
            rowKey={(d) => d.id}
            rowProps={(d) => ({ 'data-domain': d.hostname })}
            columns={[
              {
                key: 'host',
                header: t('operator.school.domains.hostname'),
                cell: (d) => (
                  <>
                    <span className="font-mono text-xs">{d.hostname}</span>
                    {d.isPrimary ? <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">{t('operator.school.domains.primary')}</span> : null}
                  </>
                ),
              },
              { key: 'kind', header: t('operator.school.domains.kind'), cell: (d) => t(`operator.school.domains.kind.${d.kind}`) },
              { key: 'state', header: t('operator.school.domains.state'), cell: (d) => t(`domains.status.${d.status}`), cellProps: (d) => ({ 'data-domain-state': d.status }) },
              {
                key: 'problem',
                header: t('operator.school.domains.problem'),
                cell: (d) =>
                  d.problem || d.lastError ? (
                    <div className="space-y-1">
                      {d.problem ? <div className="text-amber-800">{problemText(t, d.problem)}</div> : null}
                      {d.lastError ? <div className="font-mono text-xs text-red-800">{d.lastError}</div> : null}
                    </div>
                  ) : (
                    t('operator.school.domains.no_problem')
                  ),
                cellProps: () => ({ 'data-domain-problem': '' }),
              },
              { key: 'checked', header: t('operator.school.domains.checked'), cell: (d) => when(d.lastCheckedAt, '—') },
            ]}
          />
        </div>
      )}
    </Card>
  )
}

export function SchoolIntegrationsCard({ integrations }: { integrations: SchoolIntegration[] }) {
  const t = useT()
  const none = t('operator.school.integrations.none_yet')
  return (
    <Card data-school-integrations>
      <h2 className="text-lg font-semibold">{t('operator.school.integrations.title')}</h2>
      {integrations.length === 0 ? (
        <p className="mt-2 text-slate-600">{t('operator.school.integrations.empty')}</p>
      ) : (
        <div className="mt-3">
          <DataTable
            caption={t('operator.school.integrations.caption')}
            rows={integrations}
            rowKey={(i) => `${i.kind}:${i.id}`}
            rowProps={(i) => ({ 'data-integration': i.kind })}
            columns={[
              { key: 'kind', header: t('operator.school.integrations.kind'), cell: (i) => t(`operator.school.integrations.kind.${i.kind}`) },
              {
                key: 'provider',
                header: t('operator.school.integrations.provider'),
                cell: (i) => (
                  <>
                    <span className="font-mono text-xs">{i.provider}</span>
                    {i.enabled ? null : <span className="ml-2 text-xs text-slate-500">({t('operator.school.integrations.disabled')})</span>}
                  </>
                ),
              },
              { key: 'detail', header: t('operator.school.integrations.detail'), cell: (i) => i.detail || none },
              { key: 'connected', header: t('operator.school.integrations.connected'), cell: (i) => formatDateTime(i.connectedAt) },
              { key: 'success', header: t('operator.school.integrations.last_success'), cell: (i) => when(i.lastSuccessAt, none) },
              {
                key: 'failure',
                header: t('operator.school.integrations.last_failure'),
                cell: (i) =>
                  i.lastFailureAt ? (
                    <div className="space-y-1">
                      <div>{formatDateTime(i.lastFailureAt)}</div>
                      {i.lastError ? <div className="font-mono text-xs text-red-800">{i.lastError}</div> : null}
                    </div>
                  ) : (
                    none
                  ),
              },
            ]}
          />
        </div>
      )}
    </Card>
  )
}

export function SchoolTransactionsCard({ transactions }: { transactions: RecentTransaction[] }) {
  const t = useT()
  const locale = useLocale()
  return (
    <Card data-school-transactions>
      <h2 className="text-lg font-semibold">{t('operator.school.transactions.title')}</h2>
      {transactions.length === 0 ? (
        <p className="mt-2 text-slate-600">{t('operator.school.transactions.empty')}</p>
      ) : (
        <div className="mt-3">
          <DataTable
            caption={t('operator.school.transactions.caption')}
            rows={transactions}
            rowKey={(tx) => tx.id}
            rowProps={(tx) => ({ 'data-transaction': tx.id })}
            columns={[
              { key: 'date', header: t('operator.school.transactions.date'), cell: (tx) => formatDateTime(tx.createdAt) },
              { key: 'product', header: t('operator.school.transactions.product'), cell: (tx) => tx.productTitle },
              { key: 'amount', header: t('operator.school.transactions.amount'), className: 'text-right', cell: (tx) => formatMoney(tx.totalAmount, tx.currency, locale) },
              { key: 'status', header: t('operator.school.transactions.status'), cell: (tx) => t(`money.status.${tx.status}`) },
              { key: 'provider', header: t('operator.school.transactions.provider'), cell: (tx) => <span className="font-mono text-xs">{tx.provider ?? '—'}</span> },
            ]}
          />
        </div>
      )}
    </Card>
  )
}

export function SchoolFeeHistory({ history, defaults }: { history: FeeChange[]; defaults: { basisPoints: number } }) {
  const t = useT()
  const locale = useLocale()
  const percent = (bps: number) => (bps / 100).toLocaleString(locale === 'pl' ? 'pl-PL' : 'en-US', { maximumFractionDigits: 2 })
  const fallback = t('operator.school.fee_history.default')
  const value = (v: FeeChange['before']) =>
    v.feeBasisPoints === null && v.feeFixed === null
      ? fallback
      : t('operator.school.fee_history.value', { percent: percent(v.feeBasisPoints ?? defaults.basisPoints), fixed: v.feeFixed !== null ? formatMoneyInput(v.feeFixed, locale) : fallback })
  return (
    <div data-fee-history>
      <h3 className="text-base font-semibold">{t('operator.school.fee_history.title')}</h3>
      {history.length === 0 ? (
        <p className="mt-1 text-sm text-slate-600">{t('operator.school.fee_history.empty')}</p>
      ) : (
        <div className="mt-2">
          <DataTable
            caption={t('operator.school.fee_history.caption')}
            rows={history}
            rowKey={(h) => h.id}
            rowProps={() => ({ 'data-fee-change': '' })}
            columns={[
              { key: 'date', header: t('operator.school.fee_history.date'), cell: (h) => formatDateTime(h.at) },
              { key: 'by', header: t('operator.school.fee_history.by'), cell: (h) => h.actorLabel },
              { key: 'before', header: t('operator.school.fee_history.before'), cell: (h) => value(h.before) },
              { key: 'after', header: t('operator.school.fee_history.after'), cell: (h) => value(h.after) },
            ]}
          />
        </div>
      )}
    </div>
  )
}
