// One school in the operator console: suspend or reactivate it, set its platform fee (seed 001 §1:
// percentage + fixed amount per sale; empty = the platform default) and see its money (issue 18 §1):
// per currency what Coursefront collected and holds, what is on hold, the fees owed on the school's
// own sales and any debt, withdrawals, what the provider paid out on split sales; its monthly fee
// statements; its payments to check (mismatch).
import { shardDb } from '#app/db/shards.server.ts'
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { OperatorSchoolPage, type OperatorSchoolAnswer } from '#app/operator/components/school-page.tsx'
import type { Locale } from '#app/i18n/i18n.ts'
import { getBalances, listMismatchesForOperator } from '#app/models/balance.server.ts'
import { listFeeStatements } from '#app/models/fee-statement.server.ts'
import { feeStatementRow } from '#app/payments/fee-statements.server.ts'
import { FEE_FIXED_MAX, parsePercent, setFeeOverride } from '#app/models/fee-settings.server.ts'
import { getTenantById, setTenantStatus } from '#app/models/tenant.server.ts'
import { DEFAULT_FEE_BASIS_POINTS, DEFAULT_FEE_FIXED } from '#app/payments/pricing.ts'
import { optionalMoney } from '#app/utils/money.ts'
import { audit, operatorActor } from '#app/audit/audit.server.ts'
import { requireOperator } from '#app/auth/operator-auth.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getLocale, getT, notFound } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, parseForm, safeRedirect } from '#app/utils/validation.ts'

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.enum(['suspend', 'reactivate']), redirectTo: z.string().max(500).optional().catch(undefined) }),
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
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  // The school's own shard (ADR 033).
  const shard = shardDb(context.cloudflare.env, tenant.shard)
  const [balances, statements, mismatches] = await Promise.all([
    getBalances(shard, tenant.id, tenant.currency),
    listFeeStatements(shard, tenant.id, { limit: 12 }),
    listMismatchesForOperator(context.control, [shard], { tenantId: tenant.id, limit: 20 }),
  ])
  const locale: Locale = getLocale(request, context)
  return {
    title: `${tenant.name} · ${getT(request, context)('operator.schools.title')} · Coursefront`,
    school: { id: tenant.id, name: tenant.name, slug: tenant.slug, status: tenant.status, language: tenant.language, currency: tenant.currency, createdAt: tenant.createdAt },
    address: `${tenant.slug}.${context.cloudflare.env.PLATFORM_HOST}`,
    fees: { basisPoints: tenant.feeBasisPoints, fixed: tenant.feeFixed },
    defaults: { basisPoints: DEFAULT_FEE_BASIS_POINTS, fixed: DEFAULT_FEE_FIXED },
    balances,
    statements: statements.map((st) => feeStatementRow(st, locale)),
    mismatches: { total: mismatches.total, rows: mismatches.rows.map(({ school: _school, ...row }) => row) },
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const operator = await requireOperator(request, context)
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const parsed = await parseForm(ActionSchema, request)
  if (!parsed.ok) {
    if (parsed.values.intent === 'fees') return formError(parsed.errors, parsed.values)
    throw new Response('Bad Request', { status: 400 })
  }
  const input = parsed.data
  if (input.intent === 'fees') {
    await setFeeOverride(context.control, tenant.id, { feeBasisPoints: input.feePercent, feeFixed: input.feeFixed })
    await audit(context, request, {
      tenantId: tenant.id,
      actor: operatorActor(operator),
      action: 'school.fees',
      target: tenant.slug,
      before: { feeBasisPoints: tenant.feeBasisPoints, feeFixed: tenant.feeFixed },
      after: { feeBasisPoints: input.feePercent, feeFixed: input.feeFixed },
    })
    return redirectWithFlash(request, `/operator/schools/${tenant.id}`, { done: 'fees', message: 'operator.fees.saved' })
  }
  const status = input.intent === 'suspend' ? 'suspended' : 'active'
  await setTenantStatus(context.control, tenant.id, status)
  if (status !== tenant.status) {
    await audit(context, request, { tenantId: tenant.id, actor: operatorActor(operator), action: status === 'suspended' ? 'school.suspend' : 'school.reactivate', target: tenant.slug, before: { status: tenant.status }, after: { status } })
  }
  // This isolate forgets the school at once; others within the cache TTL (60 s).
  context.siteCache.invalidateTenant(tenant.id)
  const back = safeRedirect(input.redirectTo, '/operator', request)
  const sep = back.includes('?') ? '&' : '?'
  return redirect(`${back}${sep}changed=${encodeURIComponent(tenant.id)}&to=${status}`)
}

export default function OperatorSchoolRoute() {
  return <OperatorSchoolPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>() as OperatorSchoolAnswer} />
}
