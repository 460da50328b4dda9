// One school in the operator console: suspend or reactivate it, set its platform fee (seed 001 §1:
// percentage + fixed amount per sale; empty = the platform default) and see its money (issue 18 §1):
// per currency what Coursefront collected and holds, what is on hold, the fees owed on the school's
// own sales and any debt, withdrawals, what the provider paid out on split sales; its monthly fee
// statements; its payments to check (mismatch). Issue 27 §2: its owner and staff, counts, domains,
// integrations and their health, recent transactions, fee history and operators' notes; §7: e-mail
// the owner a sign-in link. Each intent needs its permission (app/operator/permissions.ts): a role
// without it gets 403 and an `operator.forbidden` audit row on the school, and nothing changes.
import { shardDb } from '#app/db/shards.server.ts'
import { data, redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
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
import { permissionsOf, type OperatorPermission } from '#app/operator/permissions.ts'
import { addOperatorNote, listOperatorNotes, NOTE_MAX } from '#app/models/operator-note.server.ts'
import { getSchoolCounts, getSchoolOwner, listFeeHistory, listRecentTransactions, listSchoolDomains, listSchoolIntegrations, listSchoolStaff } from '#app/models/school-overview.server.ts'
import { createAuthTokens } from '#app/models/auth-token.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { quotaSecondsLeft, returnQuotaTurn, takeQuotaTurn, type QuotaPolicy } from '#app/models/login-throttle.server.ts'
import { schoolEmailOriginById } from '#app/models/school-address.server.ts'
import { loginLinkPath } from '#app/auth/platform-login.server.ts'
import { platformLoginEmail } from '#app/mail/auth-mail.server.ts'
import { emailUrl } from '#app/utils/school-origin.server.ts'

const ActionSchema = z.discriminatedUnion('intent', [
  z.object({ intent: z.enum(['suspend', 'reactivate']), redirectTo: z.string().max(500).optional().catch(undefined) }),
  z.object({
    intent: z.literal('note'),
    body: z
      .string({ required_error: msg('operator.school.notes.error.required') })
      .trim()
      .min(1, { message: msg('operator.school.notes.error.required') })
      .max(NOTE_MAX, { message: msg('operator.school.notes.error.too_long') }),
  }),
  z.object({ intent: z.literal('sign_in_link') }),
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

/** What each intent needs; an unknown intent is a 400 before any permission is asked. */
const INTENT_PERMISSION: Record<string, OperatorPermission> = {
  suspend: 'schools.suspend',
  reactivate: 'schools.suspend',
  fees: 'schools.fees',
  note: 'schools.note',
  sign_in_link: 'support.act',
}

/** Sign-in links an operator may have mailed to one school's owner: 3 an hour, so no one can flood the owner's mailbox. */
const OPERATOR_SIGN_IN_LINK_POLICY: QuotaPolicy = { max: 3, windowMs: 60 * 60_000 }
const SIGN_IN_LINK_KEY = 'operator-sign-in-link'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }, { name: 'robots', content: 'noindex' }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const operator = await requireOperator(request, context)
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  // The school's own shard (ADR 033).
  const shard = shardDb(context.cloudflare.env, tenant.shard)
  const [balances, statements, mismatches, staff, counts, domains, integrations, transactions, feeHistory, notes] = await Promise.all([
    getBalances(shard, tenant.id, tenant.currency),
    listFeeStatements(shard, tenant.id, { limit: 12 }),
    listMismatchesForOperator(context.control, [shard], { tenantId: tenant.id, limit: 20 }),
    listSchoolStaff(shard, tenant.id),
    getSchoolCounts(shard, tenant.id),
    listSchoolDomains(context.control, tenant.id),
    listSchoolIntegrations(shard, tenant.id),
    listRecentTransactions(shard, tenant.id),
    listFeeHistory(context.control, tenant.id),
    listOperatorNotes(context.control, tenant.id),
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
    can: permissionsOf(operator.role),
    staff,
    counts,
    domains,
    integrations,
    transactions,
    feeHistory,
    notes: notes.map((n) => ({ id: n.id, author: n.authorLabel, body: n.body, createdAt: n.createdAt })),
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireOperator(request, context)
  const tenant = await getTenantById(context.control, params.tenantId ?? '')
  if (!tenant) notFound()
  const parsed = await parseForm(ActionSchema, request)
  const intent = parsed.ok ? parsed.data.intent : parsed.values.intent
  const permission = intent && Object.hasOwn(INTENT_PERMISSION, intent) ? INTENT_PERMISSION[intent] : undefined
  if (!permission) throw new Response('Bad Request', { status: 400 })
  // Refused before the values are looked at: a role without the permission learns nothing more.
  const operator = await requireOperator(request, context, permission, { tenantId: tenant.id })
  if (!parsed.ok) {
    if (parsed.values.intent === 'fees' || parsed.values.intent === 'note') return formError(parsed.errors, parsed.values)
    throw new Response('Bad Request', { status: 400 })
  }
  const input = parsed.data
  const here = `/operator/schools/${tenant.id}`
  if (input.intent === 'note') {
    const note = await addOperatorNote(context.control, tenant.id, { operatorId: operator.id, authorLabel: operatorActor(operator).label, body: input.body })
    await audit(context, request, { tenantId: tenant.id, actor: operatorActor(operator), action: 'school.note', target: tenant.slug, before: null, after: { noteId: note.id } })
    return redirectWithFlash(request, here, { done: 'note', message: 'operator.school.notes.saved' })
  }
  if (input.intent === 'sign_in_link') {
    const env = context.cloudflare.env
    const shard = shardDb(env, tenant.shard)
    const dbs = { db: shard, control: context.control }
    // A school being copied to another shard takes no writes (ADR 033): the token would be lost.
    if (tenant.movingSince != null) return data({ signInLink: 'moving' as const, minutes: 0 }, { status: 409 })
    // Counted per school in its own throttle scope before anything is written.
    if (!(await takeQuotaTurn(dbs, tenant.id, SIGN_IN_LINK_KEY, OPERATOR_SIGN_IN_LINK_POLICY))) {
      const minutes = Math.max(1, Math.ceil((await quotaSecondsLeft(dbs, tenant.id, SIGN_IN_LINK_KEY, OPERATOR_SIGN_IN_LINK_POLICY)) / 60))
      return data({ signInLink: 'throttled' as const, minutes }, { status: 429 })
    }
    const owner = await getSchoolOwner(shard, tenant.id)
    const origin = owner ? await schoolEmailOriginById(context.control, env, tenant.id) : null
    if (!owner || !origin) {
      await returnQuotaTurn(dbs, tenant.id, SIGN_IN_LINK_KEY)
      return data({ signInLink: 'no_owner' as const, minutes: 0 }, { status: 409 })
    }
    // The same one-time link as the platform's "Log in to your school" (30 min, hash stored), on
    // the school's own origin, mailed to the owner only: the operator never sees it.
    const [token] = await createAuthTokens(shard, [{ tenantId: tenant.id, userId: owner.id, purpose: 'login_link' }])
    const mail = platformLoginEmail({ locale: tenant.language, to: owner.email, links: [{ school: tenant.name, role: 'owner', url: emailUrl(origin, loginLinkPath(token!)) }] })
    await enqueueEmail(shard, env.MAIL_QUEUE, tenant.id, mail)
    await audit(context, request, { tenantId: tenant.id, actor: operatorActor(operator), action: 'support.sign_in_link', target: tenant.slug, before: null, after: { to: 'owner' } })
    return redirectWithFlash(request, here, { done: 'sign_in_link', message: 'operator.school.sign_in_link.sent' })
  }
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
    return redirectWithFlash(request, here, { done: 'fees', message: 'operator.fees.saved' })
  }
  const status = input.intent === 'suspend' ? 'suspended' : 'active'
  // A school waiting for its deletion is restored on its Data page, which also cancels the deletion.
  if (status === 'active' && tenant.deletionDueAt !== null) return redirectWithFlash(request, here, { done: 'deletion_pending', message: 'operator.school.deletion_pending', tone: 'info' })
  await setTenantStatus(context.control, tenant.id, status)
  if (status !== tenant.status) {
    await audit(context, request, { tenantId: tenant.id, actor: operatorActor(operator), action: status === 'suspended' ? 'school.suspend' : 'school.reactivate', target: tenant.slug, before: { status: tenant.status }, after: { status } })
  }
  // This isolate forgets the school at once; others within the cache TTL (60 s).
  context.siteCache.invalidateTenant(tenant.id)
  const back = safeRedirect(input.redirectTo, '/operator/schools', request)
  const sep = back.includes('?') ? '&' : '?'
  return redirect(`${back}${sep}changed=${encodeURIComponent(tenant.id)}&to=${status}`)
}

export default function OperatorSchoolRoute() {
  return <OperatorSchoolPage data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>() as OperatorSchoolAnswer} />
}
