import { getTenantTax } from '#app/models/school-settings.server.ts'
import { data, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react'
import { z } from 'zod'
import {
  DetailsSchema,
  ProductDetailsFields,
  ProductKindSection,
  ProductPricingSection,
  ProductPromotionSection,
  productFormInput,
  productSchema,
} from '#app/catalogue/components/product-form.tsx'
import { PRODUCT_KIND_LIST } from '#app/domain/product-kinds.ts'
import { Alert, Button, Card, PageTitle } from '#app/components/ui.tsx'
import { listLinkCandidates } from '#app/models/product-link.server.ts'
import { createCatalogueProduct } from '#app/models/product.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { getT, notFound } from '#app/utils/request.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { parseWith, type FieldErrors, type FormValues } from '#app/utils/validation.ts'

const DETAIL_FIELDS = ['title', 'description', 'category', 'difficulty'] as const
const StepSchema = z.object({ step: z.enum(['1', '2']) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

function kindOf(request: Request) {
  const kind = z.enum(PRODUCT_KIND_LIST).safeParse(new URL(request.url).searchParams.get('kind'))
  if (!kind.success) notFound()
  return kind.data
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const kind = kindOf(request)
  const t = getT(request, context)
  return {
    title: `${t('products.new.page_title', { kind: t(`products.kind.${kind}`) })} · ${tenant.name}`,
    kind,
    currency: tenant.currency,
    tax: await getTenantTax(context.db, tenant.id),
    defaultTimezone: tenant.language === 'pl' ? 'Europe/Warsaw' : 'UTC',
    candidates: await listLinkCandidates(context.db, tenant.id, kind),
  }
}

export async function action(args: ActionFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const kind = kindOf(request)
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    return formError({ form: { key: 'validation.invalid' } })
  }
  const input = productFormInput(form)
  const step = StepSchema.safeParse(input)
  if (!step.success) return formError({ form: { key: 'validation.invalid' } })
  const echo = (values: FormValues) => ({ ...values, links: Array.isArray(input.links) ? input.links.join(',') : '' })

  // Step 1/2: the details only; Step 2/2 carries them on in hidden fields (works without JavaScript).
  const details = parseWith(DetailsSchema, input)
  if (!details.ok) return data({ step: 1, errors: details.errors, values: echo(details.values) }, { status: 400 })
  if (step.data.step === '1') return data({ step: 2, errors: {} as FieldErrors, values: { ...echo(Object.fromEntries(DETAIL_FIELDS.map((f) => [f, String(input[f] ?? '')]))), commentsEnabled: 'on' } })

  const parsed = parseWith(productSchema(kind), input)
  if (!parsed.ok) return data({ step: 2, errors: parsed.errors, values: echo(parsed.values) }, { status: 400 })
  const { fields, prices, links } = parsed.data
  const product = await createCatalogueProduct(context.db, tenant.id, { kind, ...fields }, prices, links)
  if (!product) return data({ step: 2, errors: { links: { key: 'products.error.links_invalid' } } as FieldErrors, values: echo(Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === 'string')) as FormValues) }, { status: 422 })
  return redirectWithFlash(request, `/home/products/${product.id}`, { done: 'created', message: 'products.done.created' })
}

export default function NewProductPage() {
  const loaderData = useLoaderData<typeof loader>()
  const actionData = useActionData<typeof action>()
  const t = useT()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const step = actionData && 'step' in actionData ? actionData.step : 1
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const values = (actionData?.values ?? {}) as FormValues
  const kind = loaderData.kind
  return (
    <div className="space-y-6">
      <Link to={kind === 'course' ? '/home/courses' : '/home/products'} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t(kind === 'course' ? 'products.back_to_courses' : 'products.back_to_list')}
      </Link>
      <PageTitle subtitle={t(step === 1 ? 'products.new.step1' : 'products.new.step2')}>{t('products.new.page_title', { kind: t(`products.kind.${kind}`) })}</PageTitle>
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      {step === 1 ? (
        <Card>
          <Form method="post" className="space-y-4" noValidate data-step="1">
            <input type="hidden" name="step" value="1" />
            <ProductDetailsFields values={values} errors={errors} />
            <Button type="submit" disabled={busy}>
              {t('products.new.continue')}
            </Button>
          </Form>
        </Card>
      ) : (
        <Form method="post" className="space-y-6" noValidate data-step="2">
          <input type="hidden" name="step" value="2" />
          {DETAIL_FIELDS.map((f) => (
            <input key={f} type="hidden" name={f} value={values[f] ?? ''} />
          ))}
          <ProductPricingSection values={values} errors={errors} currency={loaderData.currency} tax={loaderData.tax} />
          <ProductPromotionSection values={values} errors={errors} />
          <ProductKindSection kind={kind} values={values} errors={errors} candidates={loaderData.candidates} defaultTimezone={loaderData.defaultTimezone} />
          <div className="flex flex-wrap gap-3">
            <Button type="submit" disabled={busy}>
              {t('products.new.create')}
            </Button>
          </div>
        </Form>
      )}
    </div>
  )
}
