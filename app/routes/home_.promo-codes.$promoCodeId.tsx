// One promo code: edit it, or delete it after 'Are you sure?'. Another school's id is 404 (before
// sign-in is asked for); bad input answers field errors and writes nothing.
import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import { echoInput, PromoCodeForm, PromoStatusBadge, type PromoFormValues } from '#app/checkout/components/promo-code-form.tsx'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { deletePromoCode, getPromoCode, isoDay, PromoCodeFormSchema, promoStatus, updatePromoCode } from '#app/models/promo-code.server.ts'
import { listProducts } from '#app/models/product.server.ts'
import { requireStaff, staffAction } from '#app/auth/staff.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { formatMoneyInput } from '#app/utils/money.ts'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { msg, type FieldErrors } from '#app/utils/validation.ts'

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const tenant = requireSchool(context)
  // Another school's id: 404 for everyone, before sign-in is asked for.
  const promo = await getPromoCode(context.db, tenant.id, String(params.promoCodeId ?? '').slice(0, 64))
  if (!promo) notFound()
  await requireStaff({ request, context })
  const products = await listProducts(context.db, tenant.id)
  const locale = getLocale(request, context)
  const values: PromoFormValues = {
    code: promo.code,
    kind: promo.kind,
    value: promo.kind === 'percent' ? String(promo.value) : formatMoneyInput(promo.value, locale),
    productId: promo.productId ?? '',
    startsAt: isoDay(promo.startsAt),
    endsAt: isoDay(promo.endsAt),
    usageLimit: String(promo.usageLimit),
  }
  return {
    pageTitle: `${promo.code} · ${getT(request, context)('promo.title')}`,
    currency: tenant.currency,
    products: products.map((p) => ({ id: p.id, title: p.title })),
    promo: { id: promo.id, code: promo.code, usedCount: promo.usedCount, usageLimit: promo.usageLimit, status: promoStatus(promo), updatedAt: promo.updatedAt },
    values,
  }
}

const DeleteSchema = z.object({ confirm: z.literal('on', { errorMap: () => ({ message: msg('promo.error.confirm') }) }) })

export const action = staffAction({
  invalidStatus: 422,
  // Another school's id: 404 for everyone, before sign-in is asked for.
  load: async (tenant, { context, params }) => (await getPromoCode(context.db, tenant.id, String(params.promoCodeId ?? '').slice(0, 64))) ?? notFound(),
  intents: (intent) => ({
    delete: intent(DeleteSchema, async (_input, { tenant, request, context, loaded: promo }) => {
      await deletePromoCode(context.db, tenant.id, promo.id)
      throw redirectWithFlash(request, '/home/promo-codes', { done: 'deleted', message: 'promo.done.deleted' }, { status: 303 })
    }),
    save: intent(PromoCodeFormSchema, async (input, { tenant, context, fields, loaded: promo }) => {
      const saved = await updatePromoCode(context.db, tenant.id, promo.id, input)
      if (!saved.ok) {
        if (saved.error === 'not_found') notFound()
        const errors: FieldErrors = saved.error === 'taken' ? { code: { key: 'promo.error.code_unique' } } : { productId: { key: 'promo.error.product' } }
        return formError(errors, echoInput(fields), 422)
      }
      return { ok: true as const }
    }),
  }),
})

type ActionAnswer = { ok: true } | { errors: FieldErrors; values: PromoFormValues }

export default function PromoCodePage() {
  const data = useLoaderData<typeof loader>()
  const action = useActionData<ActionAnswer>()
  const busy = useNavigation().state !== 'idle'
  const t = useT()
  const field = useFieldMessage()
  const errors = action && 'errors' in action ? action.errors : {}
  const values = action && 'values' in action && Object.keys(action.values).length ? action.values : data.values
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/home/promo-codes" className="font-semibold text-brand-700 hover:underline">
          ← {t('promo.back')}
        </Link>
      </p>
      <PageTitle
        subtitle={
          <span className="inline-flex items-center gap-2">
            <PromoStatusBadge status={data.promo.status} />
            <span data-promo-used>
              {t('promo.col.used')}: {data.promo.usedCount} / {data.promo.usageLimit === -1 ? t('promo.unlimited') : data.promo.usageLimit}
            </span>
          </span>
        }
      >
        <span className="font-mono">{data.promo.code}</span>
      </PageTitle>
      {action && 'ok' in action ? (
        <div data-done>
          <Alert tone="success">{t('promo.done.saved')}</Alert>
        </div>
      ) : null}
      <Card>
        {/* Keyed by the saved version so a successful save shows the stored values again. */}
        <PromoCodeForm key={data.promo.updatedAt} products={data.products} currency={data.currency} values={values} errors={errors} submitLabel={t('promo.save')} dataAttr="data-promo-edit" />
      </Card>
      <Card className="space-y-3 border-red-200">
        <h2 className="text-lg font-semibold">{t('promo.delete_title')}</h2>
        <p className="text-sm text-slate-600">{t('promo.delete_hint')}</p>
        <Form method="post" className="space-y-3" data-promo-delete>
          <input type="hidden" name="intent" value="delete" />
          <p className="font-medium">{t('promo.delete_confirm')}</p>
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" name="confirm" aria-invalid={errors.confirm ? true : undefined} />
            {t('promo.delete_confirm_label')}
          </label>
          {errors.confirm ? (
            <p className="text-sm text-red-600" data-field-error="confirm">
              {field(errors.confirm)}
            </p>
          ) : null}
          <Button type="submit" variant="danger" disabled={busy}>
            {t('promo.delete')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}
