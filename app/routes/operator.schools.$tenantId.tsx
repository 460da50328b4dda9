// One school in the operator console: suspend or reactivate it, set its platform fee (seed 001 §1:
// percentage + fixed amount per sale; empty = the platform default) and see its balance.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation, useSearchParams } from '@remix-run/react'
import { z } from 'zod'
import { OperatorNav } from '#app/components/operator-nav.tsx'
import { Alert, Button, Card, Field, PageTitle } from '#app/components/ui.tsx'
import { getBalances } from '#app/models/balance.server.ts'
import { FEE_FIXED_MAX, parsePercent, setFeeOverride } from '#app/models/fee-settings.server.ts'
import { getTenantById, setTenantStatus } from '#app/models/tenant.server.ts'
import { DEFAULT_FEE_BASIS_POINTS, DEFAULT_FEE_FIXED } from '#app/payments/pricing.ts'
import { formatDate } from '#app/utils/dates.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney, formatMoneyInput, optionalMoney } from '#app/utils/money.ts'
import { requireOperator } from '#app/utils/operator-auth.server.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, parseForm, safeRedirect, type FieldErrors } from '#app/utils/validation.ts'

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.enum(['suspend', 'reactivate']), redirectTo: z.string().max(500).optional() }),
  z.object({
    intent: z.literal('fees'),
    feePercent: z
      .string()
      .max(20)
      .optional()
      .transform((value, ctx) => {
        const parsed = parsePercent(value ?? '')
        if (parsed.ok) return parsed.value
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('operator.fees.error.percent') })
        return z.NEVER
      }),
    feeFixed: optionalMoney().pipe(
      z
        .number()
        .max(FEE_FIXED_MAX, { message: msg('operator.fees.error.fixed', { max: FEE_FIXED_MAX / 100 }) })
        .nullable(),
    ),
  }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireOperator(request, context)
  const tenant = await getTenantById(context.db, params.tenantId ?? '')
  if (!tenant) notFound()
  const balances = await getBalances(context.db, tenant.id, tenant.currency)
  return {
    title: `${tenant.name} · ${getT(request, context)('operator.schools.title')} · Coursefront`,
    school: { id: tenant.id, name: tenant.name, slug: tenant.slug, status: tenant.status, language: tenant.language, currency: tenant.currency, createdAt: tenant.createdAt },
    address: `${tenant.slug}.${context.cloudflare.env.PLATFORM_HOST}`,
    fees: { basisPoints: tenant.feeBasisPoints, fixed: tenant.feeFixed },
    defaults: { basisPoints: DEFAULT_FEE_BASIS_POINTS, fixed: DEFAULT_FEE_FIXED },
    balances,
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireOperator(request, context)
  const tenant = await getTenantById(context.db, params.tenantId ?? '')
  if (!tenant) notFound()
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) {
    if (parsed.values.intent === 'fees') return formError(parsed.errors, parsed.values)
    throw new Response('Bad Request', { status: 400 })
  }
  const input = parsed.data
  if (input.intent === 'fees') {
    await setFeeOverride(context.db, tenant.id, { feeBasisPoints: input.feePercent, feeFixed: input.feeFixed })
    return redirect(`/operator/schools/${tenant.id}?done=fees`)
  }
  const status = input.intent === 'suspend' ? 'suspended' : 'active'
  await setTenantStatus(context.db, tenant.id, status)
  // This isolate forgets the school at once; others within the cache TTL (60 s).
  context.siteCache.invalidateTenant(tenant.id)
  const back = safeRedirect(input.redirectTo, '/operator')
  const sep = back.includes('?') ? '&' : '?'
  return redirect(`${back}${sep}changed=${encodeURIComponent(tenant.id)}&to=${status}`)
}

export default function OperatorSchoolPage() {
  const data = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const [params] = useSearchParams()
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const errors = ((actionData as { errors?: FieldErrors } | undefined)?.errors ?? {}) as FieldErrors
  const values = ((actionData as { values?: Record<string, string> } | undefined)?.values ?? {}) as Record<string, string>
  const percent = (bps: number) => (bps / 100).toLocaleString(locale === 'pl' ? 'pl-PL' : 'en-US', { maximumFractionDigits: 2 })
  const defaultFixed = Object.entries(data.defaults.fixed)
    .map(([currency, minor]) => formatMoney(minor, currency, locale))
    .join(', ')
  const here = `/operator/schools/${data.school.id}`
  const changed = params.get('to')

  return (
    <div className="space-y-6">
      <OperatorNav />
      <Link to="/operator" className="text-sm font-medium text-brand-700 hover:underline">
        ← {t('operator.school.back')}
      </Link>
      <PageTitle subtitle={<span className="font-mono text-sm">{data.address}</span>}>{data.school.name}</PageTitle>
      {params.get('done') === 'fees' && !actionData ? <Alert tone="success">{t('operator.fees.saved')}</Alert> : null}
      {changed === 'suspended' || changed === 'active' ? (
        <Alert tone="success">{t(changed === 'suspended' ? 'operator.suspended_ok' : 'operator.reactivated_ok', { name: data.school.name })}</Alert>
      ) : null}
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}

      <Card>
        <dl className="grid grid-cols-[auto_1fr] gap-x-6 gap-y-2 text-sm">
          <dt className="text-slate-500">{t('operator.col.status')}</dt>
          <dd>{t(`operator.status.${data.school.status}`)}</dd>
          <dt className="text-slate-500">{t('operator.col.language')}</dt>
          <dd className="uppercase">{data.school.language}</dd>
          <dt className="text-slate-500">{t('operator.school.currency')}</dt>
          <dd>{data.school.currency}</dd>
          <dt className="text-slate-500">{t('operator.col.created')}</dt>
          <dd>{formatDate(data.school.createdAt, locale)}</dd>
        </dl>
        <Form method="post" className="mt-4">
          <input type="hidden" name="redirectTo" value={here} />
          <input type="hidden" name="intent" value={data.school.status === 'active' ? 'suspend' : 'reactivate'} />
          <Button type="submit" variant={data.school.status === 'active' ? 'danger' : 'secondary'}>
            {t(data.school.status === 'active' ? 'operator.suspend' : 'operator.reactivate')}
          </Button>
        </Form>
      </Card>

      <Card className="space-y-4" data-fee-settings>
        <div>
          <h2 className="text-lg font-semibold">{t('operator.fees.title')}</h2>
          <p className="text-sm text-slate-600" data-fee-current>
            {t('operator.fees.current', {
              percent: percent(data.fees.basisPoints ?? data.defaults.basisPoints),
              fixed: data.fees.fixed !== null ? formatMoneyInput(data.fees.fixed, locale) : defaultFixed,
            })}
          </p>
          <p className="text-sm text-slate-600">{t('operator.fees.free')}</p>
        </div>
        <Form method="post" className="grid gap-3 sm:grid-cols-[1fr_1fr_auto] sm:items-start" noValidate>
          <input type="hidden" name="intent" value="fees" />
          <Field
            label={t('operator.fees.percent')}
            name="feePercent"
            inputMode="decimal"
            maxLength={20}
            autoComplete="off"
            placeholder={percent(data.defaults.basisPoints)}
            defaultValue={values.intent === 'fees' ? values.feePercent : data.fees.basisPoints !== null ? percent(data.fees.basisPoints) : ''}
            hint={t('operator.fees.percent_hint', { percent: percent(data.defaults.basisPoints) })}
            error={errors.feePercent}
          />
          <Field
            label={t('operator.fees.fixed')}
            name="feeFixed"
            inputMode="decimal"
            maxLength={20}
            autoComplete="off"
            defaultValue={values.intent === 'fees' ? values.feeFixed : data.fees.fixed !== null ? formatMoneyInput(data.fees.fixed, locale) : ''}
            hint={t('operator.fees.fixed_hint', { defaults: defaultFixed })}
            error={errors.feeFixed}
          />
          <Button type="submit" className="sm:mt-6" disabled={busy}>
            {t('operator.fees.save')}
          </Button>
        </Form>
      </Card>

      <Card>
        <h2 className="text-lg font-semibold">{t('operator.school.balance')}</h2>
        {data.balances.length === 0 ? (
          <p className="mt-2 text-slate-600">{t('operator.school.no_sales')}</p>
        ) : (
          <table className="mt-3 min-w-full divide-y divide-slate-200 text-sm" data-school-balances>
            <thead className="text-left text-slate-600">
              <tr>
                <th scope="col" className="py-2 pr-4 font-semibold">{t('operator.school.currency')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.collected_by_school')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.sales')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.fees')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.refunds')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.on_hold')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.fees_owed')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.pending')}</th>
                <th scope="col" className="py-2 pr-4 text-right font-semibold">{t('money.balance.paid')}</th>
                <th scope="col" className="py-2 text-right font-semibold">{t('money.balance.available')}</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {data.balances.map((b) => (
                <tr key={b.currency}>
                  <td className="py-2 pr-4">{b.currency}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.collectedBySchool, b.currency, locale)}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.sales, b.currency, locale)}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.fees, b.currency, locale)}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.refunds, b.currency, locale)}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.onHold, b.currency, locale)}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.feesOwed, b.currency, locale)}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.pending, b.currency, locale)}</td>
                  <td className="py-2 pr-4 text-right">{formatMoney(b.paid, b.currency, locale)}</td>
                  <td className="py-2 text-right font-semibold">{formatMoney(b.available, b.currency, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        <Link to="/operator/withdrawals" className="mt-3 inline-block text-sm font-medium text-brand-700 hover:underline">
          {t('operator.withdrawals.title')} →
        </Link>
      </Card>
    </div>
  )
}
