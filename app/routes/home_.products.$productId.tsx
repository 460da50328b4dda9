import { getTenantTax } from '#app/models/school-settings.server.ts'
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { BUMP_TEXT_MAX, ProductEditor } from '#app/catalogue/components/product-editor.tsx'
import { productFormInput, productFormValues, productSchema } from '#app/catalogue/components/product-form.tsx'
import { mediaUrl } from '#app/media/origins.server.ts'
import { getTenantMediaObject } from '#app/models/media.server.ts'
import { countFilesByProduct } from '#app/models/product-file.server.ts'
import { listLinkCandidates, listLinkedIds } from '#app/models/product-link.server.ts'
import { listPrices, lowestPriceLast30Days } from '#app/models/product-price.server.ts'
import { deleteProduct, duplicateProduct, getProduct, listBumpCandidates, PRODUCT_SLUG_PATTERN, publishProduct, saveCatalogue, setProductBump, setProductSlug, setPublished } from '#app/models/product.server.ts'
import { countPublishedLectures } from '#app/models/lecture-status.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import { formatMoneyInput, optionalMoney } from '#app/utils/money.ts'
import { getLocale, getT, notFound, requireSchool } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { msg, parseWith, type FormValues } from '#app/utils/validation.ts'

const IntentSchema = z.object({ intent: z.enum(['save', 'publish', 'unpublish', 'duplicate', 'delete', 'bump']) })
const BumpSchema = z.object({
  bumpProductId: z
    .string()
    .max(64)
    .optional()
    .transform((v) => (v ?? '').trim() || null),
  bumpPrice: optionalMoney(),
  bumpText: z
    .string()
    .optional()
    .transform((v) => (v ?? '').trim())
    .pipe(z.string().max(BUMP_TEXT_MAX).refine((v) => !/[\u0000-\u001f\u007f]/.test(v), { message: msg('validation.invalid') })),
})
const SaveExtras = z.object({
  slug: z
    .string()
    .optional()
    .transform((s) => (s ?? '').trim().toLowerCase())
    .pipe(z.string().min(1).max(60).regex(PRODUCT_SLUG_PATTERN, { message: msg('products.error.slug_format') })),
  coverPath: z
    .string()
    .max(300)
    .optional()
    .transform((v) => (v ?? '').trim() || null),
})
// Seed 001 §5: deletion requires typing DELETE.
const DeleteSchema = z.object({ confirm: z.literal('DELETE', { errorMap: () => ({ message: msg('products.error.type_delete') }) }) })

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.title }]

/** The product is looked up in this school first: another school's id is 404 for everyone. */
async function requireProduct(args: LoaderFunctionArgs) {
  const product = await getProduct(args.context.db, requireSchool(args.context).id, args.params.productId ?? '')
  if (!product) notFound()
  const { tenant } = await requireStaff(args)
  return { tenant, product }
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant, product } = await requireProduct(args)
  const { request, context } = args
  const locale = getLocale(request, context)
  const [prices, links, candidates, lowest, bumpCandidates, publishedLectures, tax] = await Promise.all([
    listPrices(context.db, tenant.id, product.id),
    listLinkedIds(context.db, tenant.id, product.id),
    listLinkCandidates(context.db, tenant.id, product.kind),
    lowestPriceLast30Days(context.db, tenant.id, product.id),
    listBumpCandidates(context.db, tenant.id, product.id),
    product.kind === 'course' ? countPublishedLectures(context.db, tenant.id, product.id) : null,
    getTenantTax(context.db, tenant.id),
  ])
  const t = getT(request, context)
  return {
    title: `${product.title} · ${t('products.title')} · ${tenant.name}`,
    product: { id: product.id, kind: product.kind, title: product.title, published: product.published, hidden: product.hidden, updatedAt: product.updatedAt },
    values: productFormValues(product, prices, links, locale),
    cover: { path: product.coverPath, url: product.coverPath ? mediaUrl(context.cloudflare.env, request, product.coverPath) : null },
    candidates: candidates.filter((c) => c.id !== product.id),
    currency: tenant.currency,
    tax,
    lowest,
    publishedLectures,
    defaultTimezone: tenant.language === 'pl' ? 'Europe/Warsaw' : 'UTC',
    bump: {
      candidates: bumpCandidates,
      values: { bumpProductId: product.bumpProductId ?? '', bumpPrice: formatMoneyInput(product.bumpPrice, locale), bumpText: product.bumpText },
    },
  }
}

export async function action(args: ActionFunctionArgs) {
  const { tenant, product } = await requireProduct(args)
  const { request, context } = args
  let form: FormData
  try {
    form = await request.formData()
  } catch {
    return formError({ form: { key: 'validation.invalid' } })
  }
  const input = productFormInput(form)
  const intent = IntentSchema.safeParse(input)
  if (!intent.success) return formError({ form: { key: 'validation.invalid' } })
  const back = (done: 'saved' | 'published' | 'unpublished' | 'duplicated' | 'bump_saved', id = product.id) => redirectWithFlash(request, `/home/products/${id}`, { done, message: `products.done.${done}` })

  switch (intent.data.intent) {
    case 'publish': {
      // Issue 23 item 3: a course with no published lecture is not published (nothing written).
      const published = await publishProduct(context.db, tenant.id, product.id)
      if (published === 'no_published_lecture') return formError({ publish: { key: 'publishing.error.no_published_lecture' } }, { intent: 'publish' }, 409)
      if (published === 'not_found') notFound()
      return back('published')
    }
    case 'unpublish':
      await setPublished(context.db, tenant.id, product.id, false)
      return back('unpublished')
    case 'duplicate': {
      const t = getT(request, context)
      const copy = await duplicateProduct(context.db, tenant.id, product.id, t('products.copy_title', { title: product.title }).slice(0, 120))
      if (!copy) notFound()
      return back('duplicated', copy.id)
    }
    case 'delete': {
      const parsed = parseWith(DeleteSchema, input)
      if (!parsed.ok) return formError(parsed.errors, { intent: 'delete' })
      // A file product's stored files are removed on its files page first (they live in R2).
      if ((await countFilesByProduct(context.db, tenant.id)).get(product.id)) return formError({ confirm: { key: 'products.error.has_files' } }, { intent: 'delete' }, 409)
      await deleteProduct(context.db, tenant.id, product.id)
      return redirectWithFlash(request, product.kind === 'course' ? '/home/courses' : '/home/products', { done: 'deleted', message: 'products.done.deleted' })
    }
    case 'bump': {
      // Order bump (issue 8): checked here and in the model (the school's own published product).
      const parsed = parseWith(BumpSchema, input)
      if (!parsed.ok) return formError(parsed.errors, { ...parsed.values, intent: 'bump' })
      const saved = await setProductBump(context.db, tenant.id, product.id, parsed.data)
      const echo = { intent: 'bump', bumpProductId: parsed.data.bumpProductId ?? '', bumpPrice: String(input.bumpPrice ?? ''), bumpText: parsed.data.bumpText }
      if (saved === 'invalid_product') return formError({ bumpProductId: { key: 'products.error.bump_product' } }, echo, 422)
      if (saved === 'price_required') return formError({ bumpPrice: { key: 'validation.required' } }, echo, 422)
      if (saved === 'not_found') notFound()
      return back('bump_saved')
    }
  }

  const echo = (values: FormValues) => ({ ...values, intent: 'save', links: Array.isArray(input.links) ? input.links.join(',') : '' })
  const parsed = parseWith(productSchema(product.kind), input)
  const extras = parseWith(SaveExtras, input)
  if (!parsed.ok || !extras.ok) {
    const errors = { ...(extras.ok ? {} : extras.errors), ...(parsed.ok ? {} : parsed.errors) }
    return formError(errors, echo(parsed.ok ? (extras.ok ? {} : extras.values) : parsed.values))
  }
  const strings = echo(Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === 'string')) as FormValues)
  const { coverPath, slug } = extras.data
  if (coverPath !== product.coverPath && coverPath !== null) {
    const object = await getTenantMediaObject(context.db, tenant.id, coverPath)
    if (!object || object.status !== 'ready' || object.context !== 'cover') return formError({ coverPath: { key: 'products.error.cover' } }, strings, 422)
  }
  if (slug !== product.slug) {
    const result = await setProductSlug(context.db, tenant.id, product.id, slug)
    if (result === 'taken') return formError({ slug: { key: 'validation.slug_taken' } }, strings, 409)
    if (result !== 'ok') return formError({ slug: { key: 'products.error.slug_format' } }, strings)
  }
  const { fields, prices, links } = parsed.data
  const saved = await saveCatalogue(context.db, tenant.id, product, { fields: { ...fields, coverPath }, prices, links })
  if (saved === 'invalid_links') return formError({ links: { key: 'products.error.links_invalid' } }, strings, 422)
  if (saved === 'not_found') notFound()
  return back('saved')
}

export default function ProductPage() {
  return <ProductEditor data={useLoaderData<typeof loader>()} actionData={useActionData<typeof action>()} />
}
