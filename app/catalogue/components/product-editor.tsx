// A product's page in the admin (/home/products/{productId}): publish, duplicate, the catalogue
// form (details, cover, pricing, promotion, access, kind, SEO), the order bump and the delete
// step. The route keeps the loader and the intents it posts to.
import { Form, Link, useNavigation } from '@remix-run/react'
import { ImageUpload } from '#app/media/components/image-upload.tsx'
import {
  ProductAccessSection,
  ProductDetailsFields,
  ProductKindSection,
  ProductPricingSection,
  ProductPromotionSection,
  ProductSeoSection,
  ProductStatus,
  type LinkCandidate,
} from '#app/catalogue/components/product-form.tsx'
import { FlashMessage } from '#app/components/flash.tsx'
import { Alert, Button, Card, Field, PageTitle, SelectField, TextAreaField } from '#app/components/ui.tsx'
import type { PRODUCT_KIND_LIST } from '#app/domain/product-kinds.ts'
import { useFieldMessage, useLocale, useT } from '#app/utils/i18n-react.ts'
import { formatMoney } from '#app/utils/money.ts'
import type { FieldErrors, FormValues } from '#app/utils/validation.ts'

/** Seed 001 §5 text limit 150 for the bump's pitch. */
export const BUMP_TEXT_MAX = 150

type ProductKind = (typeof PRODUCT_KIND_LIST)[number]

export type ProductEditorData = {
  product: { id: string; kind: ProductKind; title: string; published: boolean; hidden: boolean; updatedAt: number }
  values: FormValues
  cover: { path: string | null; url: string | null }
  candidates: LinkCandidate[]
  currency: string
  /** The school's tax setting (issue 23): no VAT field when it charges none. */
  tax: { vatMode: 'vat' | 'none'; defaultVatRate: number }
  lowest: number | null
  /** Courses: how many lectures are published (the publish guard, issue 23 item 3); null otherwise. */
  publishedLectures?: number | null
  defaultTimezone: string
  bump: { candidates: Array<{ id: string; title: string }>; values: FormValues }
}
/** A refused intent: the field errors and what was sent (its `intent` says which form). */
export type ProductEditorAnswer = { errors?: FieldErrors; values?: FormValues }

export function ProductEditor({ data: loaderData, actionData }: { data: ProductEditorData; actionData: ProductEditorAnswer | undefined }) {
  const t = useT()
  const locale = useLocale()
  const message = useFieldMessage()
  const busy = useNavigation().state === 'submitting'
  const { product } = loaderData
  const errors = (actionData?.errors ?? {}) as FieldErrors
  const sent = (actionData?.values ?? {}) as FormValues
  const saving = sent.intent === 'save'
  const values = saving ? sent : loaderData.values
  const formErrors = saving ? errors : {}
  // A course with nothing published: say so next to Publish before the server refuses it.
  const publishNote = loaderData.publishedLectures === 0 ? (product.published ? 'live_without_lectures' : 'needs_lecture') : null
  return (
    <div className="space-y-6">
      <Link to={product.kind === 'course' ? '/home/courses' : '/home/products'} className="text-sm font-medium text-brand-700 hover:underline">
        ← {t(product.kind === 'course' ? 'products.back_to_courses' : 'products.back_to_list')}
      </Link>
      <PageTitle subtitle={t(`products.kind.${product.kind}`)}>{product.title}</PageTitle>
      <FlashMessage hidden={Boolean(actionData)} />
      {errors.form ? <Alert>{message(errors.form)}</Alert> : null}
      {saving && Object.keys(errors).length ? <Alert>{t('products.error.fix_fields')}</Alert> : null}

      <Card className="flex flex-wrap items-center gap-3" data-product-section="status">
        <ProductStatus published={product.published} hidden={product.hidden} />
        <Form method="post">
          <input type="hidden" name="intent" value={product.published ? 'unpublish' : 'publish'} />
          <Button
            type="submit"
            variant={product.published ? 'secondary' : 'primary'}
            disabled={busy}
            aria-describedby={publishNote || errors.publish ? 'publish-note' : undefined}
            aria-invalid={errors.publish ? true : undefined}
          >
            {t(product.published ? 'products.unpublish' : 'products.publish')}
          </Button>
        </Form>
        <Form method="post">
          <input type="hidden" name="intent" value="duplicate" />
          <Button type="submit" variant="secondary" disabled={busy}>
            {t('products.duplicate')}
          </Button>
        </Form>
        {product.kind === 'course' ? (
          <Link to={`/home/courses/${product.id}/sections`} className="text-sm font-semibold text-brand-700 hover:underline">
            {t('products.curriculum')}
          </Link>
        ) : null}
        {product.kind === 'file' ? (
          <Link to={`/home/files/${product.id}`} className="text-sm font-semibold text-brand-700 hover:underline">
            {t('products.file_page')}
          </Link>
        ) : null}
        {typeof loaderData.publishedLectures === 'number' ? (
          <span className="text-sm text-slate-600" data-published-lectures={loaderData.publishedLectures}>
            {t('publishing.note.lectures', { count: loaderData.publishedLectures })}
          </span>
        ) : null}
        {publishNote || errors.publish ? (
          <div id="publish-note" className="basis-full space-y-1 text-sm">
            {errors.publish ? (
              <p className="font-semibold text-red-700" role="alert" data-field-error="publish">
                {message(errors.publish)}
              </p>
            ) : null}
            {publishNote ? (
              <p className="text-amber-800" data-publish-note={publishNote}>
                {t(`publishing.note.${publishNote}`)}{' '}
                <Link to={`/home/courses/${product.id}/sections`} className="font-semibold text-brand-700 underline">
                  {t('publishing.open_curriculum')}
                </Link>
              </p>
            ) : null}
          </div>
        ) : null}
        {loaderData.lowest !== null ? (
          <span className="text-sm text-slate-600" data-lowest-price>
            {t('products.lowest_30_days', { price: formatMoney(loaderData.lowest, loaderData.currency, locale) })}
          </span>
        ) : null}
      </Card>

      <Form method="post" className="space-y-6" noValidate key={product.updatedAt}>
        <input type="hidden" name="intent" value="save" />
        <Card className="space-y-4" data-product-section="details">
          <h2 className="text-lg font-semibold">{t('products.section.details')}</h2>
          <ProductDetailsFields values={values} errors={formErrors} withSlug />
          <ImageUpload
            context="cover"
            name="coverPath"
            label={t('products.field.cover')}
            hint={t('products.field.cover_hint')}
            path={loaderData.cover.path}
            url={loaderData.cover.url}
            error={message(formErrors.coverPath)}
            shape="wide"
          />
        </Card>
        <ProductPricingSection values={values} errors={formErrors} currency={loaderData.currency} tax={loaderData.tax} />
        <ProductPromotionSection values={values} errors={formErrors} />
        <ProductAccessSection values={values} errors={formErrors} />
        <ProductKindSection kind={product.kind} values={values} errors={formErrors} candidates={loaderData.candidates} defaultTimezone={loaderData.defaultTimezone} />
        <ProductSeoSection values={values} errors={formErrors} />
        <Button type="submit" disabled={busy}>
          {t('products.save')}
        </Button>
      </Form>

      <BumpSection
        candidates={loaderData.bump.candidates}
        values={sent.intent === 'bump' ? sent : loaderData.bump.values}
        errors={sent.intent === 'bump' ? errors : {}}
        currency={loaderData.currency}
        busy={busy}
      />

      <Card className="space-y-3 border-red-200">
        <h2 className="text-lg font-semibold text-red-800">{t('products.delete.title')}</h2>
        <p className="text-sm text-slate-600">{t('products.delete.intro')}</p>
        <Form method="post" className="flex flex-wrap items-start gap-3" noValidate>
          <input type="hidden" name="intent" value="delete" />
          <Field className="min-w-48" label={t('products.delete.confirm')} name="confirm" autoComplete="off" error={sent.intent === 'delete' ? errors.confirm : undefined} />
          <Button type="submit" variant="danger" className="mt-6" disabled={busy}>
            {t('products.delete.button')}
          </Button>
        </Form>
      </Card>
    </div>
  )
}

/** The order bump: one more product ticked on the checkout, at an offer price, with a short pitch. */
function BumpSection({ candidates, values, errors, currency, busy }: { candidates: Array<{ id: string; title: string }>; values: FormValues; errors: FieldErrors; currency: string; busy: boolean }) {
  const t = useT()
  return (
    <Card className="space-y-4" data-product-section="bump">
      <h2 className="text-lg font-semibold">{t('products.bump.title')}</h2>
      <p className="text-sm text-slate-600">{t('products.bump.intro')}</p>
      <Form method="post" className="space-y-4" noValidate>
        <input type="hidden" name="intent" value="bump" />
        <SelectField
          label={t('products.bump.product')}
          name="bumpProductId"
          defaultValue={values.bumpProductId ?? ''}
          error={errors.bumpProductId}
          options={[{ value: '', label: t('products.bump.none') }, ...candidates.map((c) => ({ value: c.id, label: c.title }))]}
        />
        <Field label={t('products.bump.price', { currency })} name="bumpPrice" inputMode="decimal" defaultValue={values.bumpPrice} error={errors.bumpPrice} />
        <TextAreaField label={t('products.bump.text')} name="bumpText" rows={2} maxLength={BUMP_TEXT_MAX} defaultValue={values.bumpText} error={errors.bumpText} hint={t('products.bump.text_hint')} />
        <Button type="submit" variant="secondary" disabled={busy}>
          {t('products.bump.save')}
        </Button>
      </Form>
    </Card>
  )
}
