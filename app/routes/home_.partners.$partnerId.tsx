// /home/partners/{id} (issue 24 item 5): one partner — edit, deactivate/activate, delete; the
// sales made through them with commission accrued / reversed / paid / owed per currency and
// "Mark paid" (one payout per currency, one batch); a link per published product and the
// partner's private stats link. Owners and admins; another school's id is 404 before sign-in is asked
// for; bad input answers field errors and writes nothing.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { echoPartnerInput, type PartnerFormValues } from '#app/affiliates/components/partner-form.tsx'
import { PartnerPage } from '#app/affiliates/components/partner-page.tsx'
import { signPartnerStatsToken } from '#app/affiliates/stats-token.server.ts'
import {
  deletePartner,
  getPartner,
  listLinkableProducts,
  listPartnerPayouts,
  listPartnerSales,
  markPartnerPaid,
  partnerFigures,
  PartnerFormSchema,
  setPartnerActive,
  updatePartner,
} from '#app/models/affiliate.server.ts'
import { schoolEmailOrigin } from '#app/models/school-address.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formatMoneyInput } from '#app/utils/money.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, type FieldErrors } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // Another school's id: 404 for everyone, before sign-in is asked for.
  const partner = await getPartner(context.db, tenant.id, String(params.partnerId ?? '').slice(0, 64))
  if (!partner) notFound()
  await requireStaff({ request, context })
  const [figures, sales, payouts, products, origin] = await Promise.all([
    partnerFigures(context.db, tenant.id, partner.id),
    listPartnerSales(context.db, tenant.id, partner.id),
    listPartnerPayouts(context.db, tenant.id, partner.id),
    listLinkableProducts(context.db, tenant.id),
    schoolEmailOrigin(context, tenant.id),
  ])
  const key = context.cloudflare.env.INTEGRATIONS_KEY
  const token = key ? await signPartnerStatsToken(key, { tenantId: tenant.id, partnerId: partner.id }) : null
  const locale = getLocale(request, context)
  const values: PartnerFormValues = {
    name: partner.name,
    email: partner.email,
    code: partner.code,
    commissionKind: partner.commissionKind,
    commissionValue: partner.commissionKind === 'percent' ? String(partner.commissionValue) : formatMoneyInput(partner.commissionValue, locale),
    cookieDays: String(partner.cookieDays),
  }
  return {
    pageTitle: `${partner.name} · ${getT(request, context)('affiliates.title')}`,
    currency: tenant.currency,
    partner: {
      id: partner.id,
      name: partner.name,
      code: partner.code,
      kind: partner.commissionKind,
      value: partner.commissionValue,
      cookieDays: partner.cookieDays,
      active: partner.active,
      updatedAt: partner.updatedAt,
    },
    values,
    figures: figures.map(({ partnerId: _p, ...f }) => f),
    sales: sales.map((s) => ({ ...s, paid: Boolean(s.paid), refunded: Boolean(s.refunded) })),
    payouts,
    links: products.map((p) => ({ id: p.id, title: p.title, url: `${origin}/${p.slug}?ref=${encodeURIComponent(partner.code)}` })),
    statsUrl: token ? `${origin}/partners/stats/${token}` : null,
  }
}

const DeleteSchema = z.object({ confirm: z.literal('on', { errorMap: () => ({ message: msg('affiliates.error.confirm') }) }) })
const ActiveSchema = z.object({ active: z.enum(['0', '1']) })
const PaidSchema = z.object({ currency: z.string().regex(/^[A-Z]{3}$/) })

export const action = staffAction({
  invalidStatus: 422,
  // Another school's id: 404 for everyone, before sign-in is asked for.
  load: async (tenant, { context, params }) => (await getPartner(context.db, tenant.id, String(params.partnerId ?? '').slice(0, 64))) ?? notFound(),
  intents: (intent) => ({
    save: intent(PartnerFormSchema, async (input, { tenant, request, context, fields, loaded: partner }) => {
      // An emptied code keeps the current one (the links already sent keep working).
      const saved = await updatePartner(context.db, tenant.id, partner.id, { ...input, code: input.code || partner.code })
      if (!saved.ok) {
        if (saved.error === 'not_found') notFound()
        return formError({ code: { key: 'affiliates.error.code_taken' } }, echoPartnerInput(fields), 422)
      }
      throw redirectWithFlash(request, `/home/partners/${partner.id}`, { done: 'saved', message: 'affiliates.done.saved' }, { status: 303 })
    }),
    active: intent(ActiveSchema, async (input, { tenant, request, context, loaded: partner }) => {
      await setPartnerActive(context.db, tenant.id, partner.id, input.active === '1')
      throw redirectWithFlash(request, `/home/partners/${partner.id}`, { done: 'saved', message: input.active === '1' ? 'affiliates.done.activated' : 'affiliates.done.deactivated' }, { status: 303 })
    }),
    paid: intent(PaidSchema, async (input, { tenant, request, context, loaded: partner }) => {
      const payout = await markPartnerPaid(context.db, tenant.id, partner.id, input.currency)
      if (!payout) return formError({ currency: { key: 'affiliates.error.currency' } }, {}, 422)
      throw redirectWithFlash(request, `/home/partners/${partner.id}`, { done: 'paid', message: 'affiliates.done.paid' }, { status: 303 })
    }),
    delete: intent(DeleteSchema, async (_input, { tenant, request, context, loaded: partner }) => {
      await deletePartner(context.db, tenant.id, partner.id)
      throw redirectWithFlash(request, '/home/partners', { done: 'deleted', message: 'affiliates.done.deleted' }, { status: 303 })
    }),
  }),
})

export default function PartnerRoute() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<{ errors: FieldErrors; values: PartnerFormValues }>()
  return <PartnerPage data={data} errors={action?.errors ?? {}} values={action?.values && Object.keys(action.values).length ? action.values : data.values} />
}
