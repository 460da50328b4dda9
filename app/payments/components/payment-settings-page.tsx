// The payment settings page (/home/settings/payments, issue 8 item 3, issue 18): Coursefront
// payments (Stripe Connect, PayU Marketplace), the school's provider integrations and the forms
// to connect PayU, Stripe and the test provider, the school's tax setting (issue 23 §4) and a link
// to the legal pages' editor. The route keeps the loader and the action.
import { Form, Link, useNavigation, useSearchParams } from '@remix-run/react'
import type { ReactNode } from 'react'
import { Alert, Button, Card, cx, Field, PageTitle, SelectField } from '#app/components/ui.tsx'
import { DataTable } from '#app/components/data-table.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import type { PaymentProvider, PayoutProvider } from '#app/db/schema.server.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

export const CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const
/** Errors the integration actions (/home/settings/payments/{id}) send back in `?error=`. */
const SHOWN_ERRORS = ['payments.error.confirm_delete', 'payments.error.test_mode_enable', 'marketplace.error.not_configured', 'marketplace.error.unavailable', 'marketplace.error.refused'] as const

export type PaymentSettingsData = {
  marketplace: MarketplaceRow[]
  holdDays: number
  tax: { vatMode: 'vat' | 'none'; defaultVatRate: number }
  defaultCurrency: string
  testProviderAllowed: boolean
  integrations: Array<{ id: string; provider: PaymentProvider; currency: string; account: string; enabled: boolean; createdAt: number; notifyUrl: string }>
  /** Issue 25: providers built as modules, with the inputs of their credentials form. */
  modules: Array<{ provider: PaymentProvider; currencies: string[]; fields: Array<{ name: string; kind: 'text' | 'secret' | 'textarea' | 'sandbox'; labelKey: string; hintKey?: string; inputMode?: 'numeric' | 'text' }> }>
  /** Providers with a set-up guide (docs/payments/{provider}.md), linked from their form. */
  guides: PaymentProvider[]
}

export type ActionData = { errors: FieldErrors; values: FormValues }

function ProviderForm({ provider, title, intro, action, children, guide = false }: { provider: PaymentProvider; title: string; intro: string; action: ActionData | undefined; children: ReactNode; guide?: boolean }) {
  const t = useT()
  const message = useFieldMessage()
  const navigation = useNavigation()
  const mine = action?.values.provider === provider
  const busy = navigation.state === 'submitting' && navigation.formData?.get('provider') === provider
  return (
    <Card data-payment-form={provider}>
      <h2 className="text-lg font-semibold">{title}</h2>
      <p className="mt-1 text-sm text-slate-600">{intro}</p>
      {guide ? (
        <p className="mt-1 text-sm">
          <Link to={`/home/settings/payments/guide?provider=${provider}`} className="font-semibold text-brand-700 underline" data-provider-guide={provider}>
            {t('payments.guide.link', { provider: t(`payments.provider.${provider}`) })}
          </Link>
        </p>
      ) : null}
      {mine && action?.errors.form ? (
        <div className="mt-3" data-form-error>
          <Alert>{message(action.errors.form)}</Alert>
        </div>
      ) : null}
      {/* Keyed by the answer, so a refused form keeps what was typed (secrets excepted) and a new one starts clean. */}
      <Form method="post" className="mt-4 grid gap-4 sm:grid-cols-2" key={mine ? 'answered' : 'fresh'}>
        <input type="hidden" name="provider" value={provider} />
        {children}
        <div className="sm:col-span-2">
          <Button type="submit" disabled={busy}>
            {t('payments.add.submit')}
          </Button>
        </div>
      </Form>
    </Card>
  )
}

type MarketplaceRow = { provider: PayoutProvider; configured: boolean; ownAccount: boolean; account: { ref: string; status: 'onboarding' | 'enabled' | 'restricted'; detail: string } | null }

const ONBOARDING_PATH: Record<PayoutProvider, string> = { stripe: '/home/settings/payments/stripe-connect', payu: '/home/settings/payments/payu-marketplace' }

/** Coursefront payments: the platform's Stripe Connect and PayU Marketplace, and this school's payouts there. */
function MarketplaceCard({ marketplace, holdDays }: { marketplace: MarketplaceRow[]; holdDays: number }) {
  const t = useT()
  const navigation = useNavigation()
  const button = (row: MarketplaceRow) => {
    const status = row.account?.status
    if (row.provider === 'stripe') return t(!status ? 'marketplace.stripe.start' : status === 'onboarding' ? 'marketplace.stripe.continue' : 'marketplace.stripe.update')
    return t(!status ? 'marketplace.payu.start' : status === 'enabled' ? 'marketplace.payu.check' : 'marketplace.payu.continue')
  }
  return (
    <Card data-marketplace>
      <h2 className="text-lg font-semibold">{t('marketplace.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('marketplace.intro', { days: holdDays })}</p>
      <ul className="mt-4 divide-y divide-slate-100">
        {marketplace.map((row) => {
          const status = row.account?.status ?? 'none'
          const busy = navigation.state === 'submitting' && navigation.formAction === ONBOARDING_PATH[row.provider]
          return (
            <li key={row.provider} className="flex flex-wrap items-center justify-between gap-3 py-3" data-marketplace-provider={row.provider} data-payout-status={status}>
              <div>
                <h3 className="font-medium">{t(`marketplace.${row.provider}.title`)}</h3>
                {!row.configured ? (
                  <p className="text-sm text-slate-600">{t('marketplace.not_offered')}</p>
                ) : row.ownAccount ? (
                  <p className="text-sm text-slate-600">{t('marketplace.own_account', { provider: t(`payments.provider.${row.provider}`) })}</p>
                ) : (
                  <>
                    <p className="text-sm">
                      <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', status === 'enabled' ? 'bg-emerald-100 text-emerald-800' : status === 'restricted' ? 'bg-amber-100 text-amber-900' : 'bg-slate-100 text-slate-700')}>
                        {t(`marketplace.status.${status}`)}
                      </span>
                      {row.account ? <span className="ml-2 font-mono text-xs text-slate-500">{t('marketplace.account', { account: row.account.ref })}</span> : null}
                    </p>
                    {row.account?.detail && status !== 'enabled' ? <p className="mt-1 text-sm text-slate-600">{t('marketplace.detail', { detail: row.account.detail })}</p> : null}
                  </>
                )}
              </div>
              {row.configured && !row.ownAccount ? (
                <Form method="post" action={ONBOARDING_PATH[row.provider]}>
                  <Button type="submit" variant={status === 'enabled' ? 'secondary' : 'primary'} disabled={busy}>
                    {button(row)}
                  </Button>
                </Form>
              ) : null}
            </li>
          )
        })}
      </ul>
    </Card>
  )
}

/** "Prices include VAT at [rate] %" or "No VAT": a plain form, radios and a number (works without JavaScript). */
function TaxCard({ tax, action }: { tax: PaymentSettingsData['tax']; action: ActionData | undefined }) {
  const t = useT()
  const message = useFieldMessage()
  const mine = action?.values.intent === 'tax' ? action : undefined
  const mode = mine?.values.vatMode ?? tax.vatMode
  const rateError = message(mine?.errors.defaultVatRate)
  return (
    <Card data-tax-settings={tax.vatMode}>
      <h2 className="text-lg font-semibold">{t('tax.title')}</h2>
      <p className="mt-1 text-sm text-slate-600">{t('tax.intro')}</p>
      <p className="mt-2 text-sm font-medium" data-tax-current>
        {tax.vatMode === 'none' ? t('tax.current.none') : t('tax.current.vat', { rate: tax.defaultVatRate })}
      </p>
      <Form method="post" className="mt-4 space-y-3" key={mine ? 'answered' : `${tax.vatMode}-${tax.defaultVatRate}`}>
        <input type="hidden" name="intent" value="tax" />
        <fieldset className="space-y-3" aria-describedby={rateError ? 'tax-rate-error' : undefined}>
          <legend className="text-sm font-medium text-slate-700">{t('tax.mode')}</legend>
          <div className="flex flex-wrap items-center gap-2 text-sm">
            <input type="radio" id="vat-mode-vat" name="vatMode" value="vat" defaultChecked={mode === 'vat'} />
            <label htmlFor="vat-mode-vat">{t('tax.mode.vat')}</label>
            <input
              id="tax-rate"
              name="defaultVatRate"
              inputMode="numeric"
              maxLength={2}
              size={3}
              aria-label={t('tax.rate')}
              aria-invalid={rateError ? true : undefined}
              aria-describedby={rateError ? 'tax-rate-error' : 'tax-rate-hint'}
              defaultValue={mine?.values.defaultVatRate ?? String(tax.defaultVatRate)}
              className={cx('w-16 rounded-md border px-2 py-1 text-sm', rateError ? 'border-red-500' : 'border-slate-300')}
            />
            <span aria-hidden>%</span>
          </div>
          <p id="tax-rate-hint" className="text-xs text-slate-500">
            {t('tax.rate_hint')}
          </p>
          {rateError ? (
            <p id="tax-rate-error" className="text-sm text-red-600" data-field-error="defaultVatRate">
              {rateError}
            </p>
          ) : null}
          <div className="flex items-center gap-2 text-sm">
            <input type="radio" id="vat-mode-none" name="vatMode" value="none" defaultChecked={mode === 'none'} />
            <label htmlFor="vat-mode-none">{t('tax.mode.none')}</label>
          </div>
          {mine?.errors.vatMode ? (
            <p className="text-sm text-red-600" data-field-error="vatMode">
              {message(mine.errors.vatMode)}
            </p>
          ) : null}
        </fieldset>
        <Button type="submit" variant="secondary">
          {t('tax.save')}
        </Button>
      </Form>
    </Card>
  )
}

export function PaymentSettingsPage({ data, action }: { data: PaymentSettingsData; action: ActionData | undefined }) {
  const [params] = useSearchParams()
  const t = useT()
  const message = useFieldMessage()
  const locale = useLocale()
  const errorKey = !action ? params.get('error') : null
  const fieldsOf = (provider: PaymentProvider) => (action?.values.provider === provider ? action : undefined)
  const currencyField = (provider: PaymentProvider) => (
    <SelectField
      label={t('payments.field.currency')}
      name="currency"
      defaultValue={fieldsOf(provider)?.values.currency ?? data.defaultCurrency}
      error={fieldsOf(provider)?.errors.currency}
      options={CURRENCIES.map((c) => ({ value: c, label: c }))}
    />
  )
  const payu = fieldsOf('payu')
  const stripe = fieldsOf('stripe')
  return (
    <div className="space-y-6">
      <PageTitle subtitle={t('payments.intro')}>{t('payments.title')}</PageTitle>
      <FlashMessage hidden={Boolean(action)} />
      {errorKey && (SHOWN_ERRORS as readonly string[]).includes(errorKey) ? (
        <div data-page-error={errorKey}>
          <Alert>{t(errorKey)}</Alert>
        </div>
      ) : null}
      <MarketplaceCard marketplace={data.marketplace} holdDays={data.holdDays} />
      <TaxCard tax={data.tax} action={action} />
      <Card data-legal-settings-link>
        <h2 className="text-lg font-semibold">{t('legal.settings.title')}</h2>
        <p className="mt-1 text-sm text-slate-600">{t('legal.settings.intro', { terms: '/terms', privacy: '/privacy' })}</p>
        <Link to="/home/settings/legal" className="mt-3 inline-block text-sm font-semibold text-brand-700 underline">
          {t('legal.settings.link')}
        </Link>
      </Card>
      <Card>
        <h2 className="text-lg font-semibold">{t('payments.list.title')}</h2>
        {data.integrations.length === 0 ? (
          <p className="mt-2 text-sm text-slate-600">{t('payments.list.empty')}</p>
        ) : (
          <div className="mt-3">
            <p className="mb-3 text-sm text-slate-500">{t('payments.list.count', { count: data.integrations.length })}</p>
            <DataTable
              data-payment-integrations
              rows={data.integrations}
              rowKey={(i) => i.id}
              rowProps={(i) => ({ 'data-payment-integration': `${i.provider}-${i.currency}`, 'data-integration-id': i.id })}
              columns={[
                { key: 'provider', header: t('payments.col.provider'), className: 'font-medium', cell: (i) => t(`payments.provider.${i.provider}`) },
                { key: 'currency', header: t('payments.col.currency'), className: 'font-mono', cell: (i) => i.currency },
                { key: 'account', header: t('payments.col.account'), className: 'font-mono text-slate-600', cell: (i) => i.account },
                {
                  key: 'status',
                  header: t('payments.col.status'),
                  cell: (i) => (
                    <span className={cx('rounded px-2 py-0.5 text-xs font-semibold', i.enabled ? 'bg-emerald-100 text-emerald-800' : 'bg-slate-100 text-slate-700')} data-integration-status={i.enabled ? 'enabled' : 'disabled'}>
                      {t(i.enabled ? 'payments.status.enabled' : 'payments.status.disabled')}
                    </span>
                  ),
                },
                { key: 'added', header: t('payments.col.added'), className: 'whitespace-nowrap', cell: (i) => formatDate(i.createdAt, locale) },
                {
                  key: 'notify',
                  header: t('payments.col.notify'),
                  cell: (i) => (i.provider === 'test' ? null : <code className="break-all text-xs text-slate-600" data-notify-url>{i.notifyUrl}</code>),
                },
                {
                  key: 'actions',
                  header: t('payments.col.actions'),
                  srOnlyHeader: true,
                  cell: (i) => (
                    <div className="flex flex-wrap items-end gap-2">
                      <Form method="post" action={`/home/settings/payments/${i.id}`}>
                        <input type="hidden" name="intent" value={i.enabled ? 'disable' : 'enable'} />
                        <Button type="submit" variant="secondary">
                          {t(i.enabled ? 'payments.disable' : 'payments.enable')}
                        </Button>
                      </Form>
                      <Form method="post" action={`/home/settings/payments/${i.id}`} className="flex items-end gap-2" data-delete-integration>
                        <input type="hidden" name="intent" value="delete" />
                        <label className="text-xs text-slate-600">
                          <span className="block">{t('payments.delete.confirm_label')}</span>
                          <input name="confirm" autoComplete="off" className="mt-1 w-28 rounded-md border border-slate-300 px-2 py-1 text-sm" title={t('payments.delete.confirm_hint')} />
                        </label>
                        <Button type="submit" variant="danger">
                          {t('payments.delete')}
                        </Button>
                      </Form>
                    </div>
                  ),
                },
              ]}
            />
          </div>
        )}
      </Card>

      <ProviderForm provider="payu" title={t('payments.add.payu')} intro={t('payments.add.payu.intro')} action={action} guide={data.guides.includes('payu')}>
        <Field label={t('payments.field.posId')} name="posId" inputMode="numeric" autoComplete="off" defaultValue={payu?.values.posId ?? ''} error={payu?.errors.posId} />
        <Field label={t('payments.field.clientId')} name="clientId" autoComplete="off" defaultValue={payu?.values.clientId ?? ''} error={payu?.errors.clientId} />
        <Field label={t('payments.field.clientSecret')} name="clientSecret" type="password" autoComplete="off" hint={t('payments.secret_hint')} error={payu?.errors.clientSecret} />
        <Field label={t('payments.field.secondKey')} name="secondKey" type="password" autoComplete="off" hint={t('payments.secret_hint')} error={payu?.errors.secondKey} />
        {currencyField('payu')}
        <SelectField
          label={t('payments.field.sandbox')}
          name="sandbox"
          defaultValue={payu?.values.sandbox ?? 'no'}
          error={payu?.errors.sandbox}
          options={[
            { value: 'no', label: t('payments.field.sandbox.no') },
            { value: 'yes', label: t('payments.field.sandbox.yes') },
          ]}
        />
      </ProviderForm>

      <ProviderForm provider="stripe" title={t('payments.add.stripe')} intro={t('payments.add.stripe.intro')} action={action} guide={data.guides.includes('stripe')}>
        <Field label={t('payments.field.secretKey')} name="secretKey" type="password" autoComplete="off" hint={t('payments.secret_hint')} error={stripe?.errors.secretKey} />
        {currencyField('stripe')}
      </ProviderForm>

      {data.modules.map((m) => {
        const answered = fieldsOf(m.provider)
        return (
          <ProviderForm key={m.provider} provider={m.provider} title={t(`payments.add.${m.provider}`)} intro={t(`payments.add.${m.provider}.intro`)} action={action} guide={data.guides.includes(m.provider)}>
            {m.fields.map((f) =>
              f.kind === 'sandbox' ? (
                <SelectField
                  key={f.name}
                  label={t(f.labelKey)}
                  name={f.name}
                  defaultValue={answered?.values[f.name] ?? 'no'}
                  error={answered?.errors[f.name]}
                  options={[
                    { value: 'no', label: t('payments.field.sandbox.no') },
                    { value: 'yes', label: t('payments.field.sandbox.yes') },
                  ]}
                />
              ) : (
                <Field
                  key={f.name}
                  label={t(f.labelKey)}
                  name={f.name}
                  type={f.kind === 'secret' ? 'password' : 'text'}
                  inputMode={f.inputMode}
                  autoComplete="off"
                  hint={f.kind === 'secret' ? t('payments.secret_hint') : f.hintKey ? t(f.hintKey) : undefined}
                  defaultValue={f.kind === 'secret' ? undefined : (answered?.values[f.name] ?? '')}
                  error={answered?.errors[f.name]}
                />
              ),
            )}
            <SelectField
              label={t('payments.field.currency')}
              name="currency"
              defaultValue={answered?.values.currency ?? (m.currencies.includes(data.defaultCurrency) ? data.defaultCurrency : m.currencies[0])}
              error={answered?.errors.currency}
              options={m.currencies.map((c) => ({ value: c, label: c }))}
            />
          </ProviderForm>
        )
      })}

      {data.testProviderAllowed ? (
        <ProviderForm provider="test" title={t('payments.add.test')} intro={t('payments.add.test.intro')} action={action}>
          {currencyField('test')}
        </ProviderForm>
      ) : action?.values.provider === 'test' && action.errors.provider ? (
        // A test provider form posted here (no form is shown): the refusal, in the page's language.
        <div data-field-error="provider">
          <Alert>{message(action.errors.provider)}</Alert>
        </div>
      ) : null}
    </div>
  )
}
