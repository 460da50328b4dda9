// The product form of the instructor panel (issue 5 §1): its zod schema (shared by the two-step
// create and the edit page) and its sections. Every field is a plain input of one <Form>, so it
// works without JavaScript; the action validates everything and answers field errors as keys.
import type { ReactNode } from 'react'
import { useId } from 'react'
import { z } from 'zod'
import type { Product, ProductKind } from '#app/db/schema.server.ts'
import type { Locale } from '#app/i18n/i18n.ts'
import { useFieldMessage, useT } from '#app/utils/i18n-react.ts'
import { formatMoneyInput, money, optionalMoney } from '#app/utils/money.ts'
import { msg, text, type FieldErrors, type FormValues } from '#app/utils/validation.ts'
import { Card, cx, Field, SelectField, TextAreaField } from '#app/components/ui.tsx'

// The schema's enums, repeated here: a .server module cannot reach the browser bundle (the product
// kinds: app/domain/product-kinds.ts).
const DIFFICULTIES = ['beginner', 'intermediate', 'advanced'] as const
const MEMBERSHIP_PERIODS = [-1, 1, 3, 6, 12] as const

export const TITLE_MAX = 120
export const DESCRIPTION_MAX = 20_000
export const CATEGORY_MAX = 70
/** Seed 001 §5: text limits 70 and 150 (SEO title and description). */
export const SEO_TITLE_MAX = 70
export const SEO_DESCRIPTION_MAX = 150
export const VARIANT_NAME_MAX = 70
/** Polish VAT rates plus "zw" (exempt, stored as null). */
export const VAT_RATES = ['23', '8', '5', '0', 'zw'] as const
export const LIMIT_MAX = 1_000_000
export const ACCESS_DAYS_MAX = 36_500
const DAY_MS = 24 * 60 * 60 * 1000

const controlChars = /[\u0000-\u0008\u000b-\u001f\u007f]/
const optionalText = (max: number, multiline = false) =>
  z
    .string()
    .optional()
    .transform((s) => (s ?? '').replace(/\r\n/g, '\n').trim())
    .pipe(
      z
        .string()
        .max(max)
        .refine((s) => !(multiline ? controlChars : /[\u0000-\u001f\u007f]/).test(s), { message: msg('validation.invalid') }),
    )
const checkbox = z
  .string()
  .optional()
  .transform((v) => v === 'on')

/** A whole number between min and max; '' gives the fallback. */
const integer = (min: number, max: number, fallback: number | null) =>
  z
    .string()
    .optional()
    .transform((s, ctx) => {
      const v = (s ?? '').trim()
      if (!v) {
        if (fallback === null) ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('validation.required') })
        return fallback ?? 0
      }
      if (!/^-?\d{1,9}$/.test(v)) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('products.error.integer') })
        return z.NEVER
      }
      const n = Number(v)
      if (n < min) ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('validation.min_number', { min }) })
      else if (n > max) ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('validation.max_number', { max }) })
      return n
    })

/** 'YYYY-MM-DD' (a date input) → ms at 00:00 UTC, or at the end of that day; '' → null. */
const date = (endOfDay = false) =>
  z
    .string()
    .optional()
    .transform((s, ctx) => {
      const v = (s ?? '').trim()
      if (!v) return null
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(v)
      const ms = m ? Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])) : NaN
      if (!m || Number.isNaN(ms) || new Date(ms).toISOString().slice(0, 10) !== v || Number(m[1]) < 2000 || Number(m[1]) > 2200) {
        ctx.addIssue({ code: z.ZodIssueCode.custom, message: msg('products.error.date') })
        return z.NEVER
      }
      return endOfDay ? ms + DAY_MS - 1 : ms
    })

export function isTimeZone(tz: string) {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz })
    return tz.length <= 64
  } catch {
    return false
  }
}

/** Offset (ms) of a time zone at an instant. */
function zoneOffset(instant: number, timeZone: string) {
  const parts = new Intl.DateTimeFormat('en-US', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' }).formatToParts(instant)
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value)
  return Date.UTC(get('year'), get('month') - 1, get('day'), get('hour'), get('minute'), get('second')) - Math.floor(instant / 1000) * 1000
}

/** A wall-clock 'YYYY-MM-DDTHH:mm' in an IANA zone → epoch ms (null when malformed). */
export function zonedToEpoch(local: string, timeZone: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(local)
  if (!m) return null
  const guess = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]))
  if (Number.isNaN(guess) || new Date(guess).toISOString().slice(0, 16) !== local) return null
  const first = guess - zoneOffset(guess, timeZone)
  // A second pass settles instants next to a DST change.
  return guess - zoneOffset(first, timeZone)
}

/** epoch ms → 'YYYY-MM-DDTHH:mm' on the wall clock of the zone. */
export function epochToZoned(instant: number, timeZone: string) {
  return new Date(instant + zoneOffset(instant, timeZone)).toISOString().slice(0, 16)
}

const isoDate = (ms: number | null) => (ms ? new Date(ms).toISOString().slice(0, 10) : '')

/** Step 1/2 and the details section. */
export const DetailsSchema = z.object({
  title: text({ max: TITLE_MAX }),
  description: optionalText(DESCRIPTION_MAX, true),
  category: optionalText(CATEGORY_MAX),
  difficulty: z
    .string()
    .optional()
    .transform((v) => v || null)
    .pipe(z.enum(DIFFICULTIES).nullable()),
})

const RestSchema = z.object({
  isFree: checkbox,
  price: z.string().optional(),
  priceName: optionalText(VARIANT_NAME_MAX),
  price2: optionalMoney(),
  price2Name: optionalText(VARIANT_NAME_MAX),
  price3: optionalMoney(),
  price3Name: optionalText(VARIANT_NAME_MAX),
  vatRate: z
    .string()
    .optional()
    .transform((v) => v ?? '23')
    .pipe(z.enum(VAT_RATES, { errorMap: () => ({ message: msg('products.error.vat') }) })),
  hasPromo: checkbox,
  promoPrice: z.string().optional(),
  promoStartsAt: date(),
  promoEndsAt: date(true),
  promoLimit: integer(-1, LIMIT_MAX, -1),
  accessDays: integer(0, ACCESS_DAYS_MAX, 0),
  accessUntil: date(true),
  saleLimit: integer(0, LIMIT_MAX, 0),
  hidden: checkbox,
  seoTitle: optionalText(SEO_TITLE_MAX),
  seoDescription: optionalText(SEO_DESCRIPTION_MAX),
  commentsEnabled: checkbox,
  freeRequiresLogin: checkbox,
  membershipPeriod: z.string().optional(),
  membershipGrantsAll: checkbox,
  links: z.array(z.string().max(64)).max(500).optional(),
  eventStartsAt: z.string().optional(),
  eventTimezone: optionalText(64),
  eventJoinUrl: optionalText(500),
  consultationMinutes: z.string().optional(),
  shippingCourierPrice: optionalMoney(),
  shippingLockerPrice: optionalMoney(),
})

function issue(ctx: z.RefinementCtx, path: string, key: string, values?: Record<string, string | number>) {
  ctx.addIssue({ code: z.ZodIssueCode.custom, path: [path], message: msg(key, values) })
}

const FIELDS = { ...DetailsSchema.shape, ...RestSchema.shape }
type Parsed = { [K in keyof typeof FIELDS]: z.output<(typeof FIELDS)[K]> }

/**
 * The whole product form for a kind → the model's fields, price variants and links. Each field is
 * parsed on its own, so one bad field does not hide the others' errors (the cross-field rules run
 * on whatever parsed).
 */
export function productSchema(kind: ProductKind) {
  return z.record(z.unknown()).transform((raw, ctx) => {
    const d = {} as Parsed
    let failed = false
    for (const [key, schema] of Object.entries(FIELDS)) {
      const r = (schema as z.ZodTypeAny).safeParse(raw[key])
      if (r.success) (d as Record<string, unknown>)[key] = r.data
      else {
        failed = true
        ctx.addIssue({ code: z.ZodIssueCode.custom, path: [key], message: r.error.issues[0]?.message ?? msg('validation.invalid') })
      }
    }
    // Prices: the main one is required unless the product is free; variants 2 and 3 need a name.
    const prices: Array<{ name: string; amount: number }> = []
    if (!d.isFree) {
      const main = money().safeParse(d.price ?? '')
      if (!main.success) ctx.addIssue({ ...main.error.issues[0]!, path: ['price'] })
      else prices.push({ name: d.priceName, amount: main.data })
      for (const [amount, name, field] of [
        [d.price2, d.price2Name, 'price2Name'],
        [d.price3, d.price3Name, 'price3Name'],
      ] as const) {
        if (amount === null || amount === undefined) continue
        if (!name) issue(ctx, field, 'products.error.variant_name')
        prices.push({ name, amount })
      }
    }
    // Promotion (seed 001 §4/§5): below the standard price; the end not before the start.
    let promoPrice: number | null = null
    if (d.hasPromo && !d.isFree) {
      const promo = money().safeParse(d.promoPrice ?? '')
      if (!promo.success) ctx.addIssue({ ...promo.error.issues[0]!, path: ['promoPrice'] })
      else if (prices[0] && promo.data >= prices[0].amount) issue(ctx, 'promoPrice', 'products.error.promo_not_lower')
      else promoPrice = promo.data
      if (d.promoStartsAt != null && d.promoEndsAt != null && d.promoEndsAt < d.promoStartsAt) issue(ctx, 'promoEndsAt', 'products.error.end_before_start')
    }
    const fields = {
      title: d.title,
      description: d.description,
      category: d.category,
      difficulty: d.difficulty,
      isFree: d.isFree,
      vatRate: d.vatRate === 'zw' ? null : Number(d.vatRate ?? 23),
      promoPrice,
      promoStartsAt: promoPrice !== null ? (d.promoStartsAt ?? null) : null,
      promoEndsAt: promoPrice !== null ? (d.promoEndsAt ?? null) : null,
      promoLimit: promoPrice !== null ? d.promoLimit : -1,
      accessDays: d.accessDays,
      accessUntil: d.accessUntil ?? 0,
      saleLimit: d.saleLimit,
      hidden: d.hidden,
      seoTitle: d.seoTitle,
      seoDescription: d.seoDescription,
      commentsEnabled: kind === 'course' ? d.commentsEnabled : true,
      freeRequiresLogin: kind === 'course' ? d.freeRequiresLogin : false,
      membershipPeriod: null as number | null,
      membershipGrantsAll: false,
      eventStartsAt: null as number | null,
      eventTimezone: null as string | null,
      eventJoinUrl: null as string | null,
      consultationMinutes: null as number | null,
      shippingCourierPrice: null as number | null,
      shippingLockerPrice: null as number | null,
    }
    let links: string[] | null = null
    if (kind === 'membership') {
      const period = Number(d.membershipPeriod)
      if (!d.membershipPeriod || !(MEMBERSHIP_PERIODS as readonly number[]).includes(period)) issue(ctx, 'membershipPeriod', 'validation.in')
      fields.membershipPeriod = period
      fields.membershipGrantsAll = d.membershipGrantsAll
      links = d.membershipGrantsAll ? [] : (d.links ?? [])
      if (!d.membershipGrantsAll && links.length === 0) issue(ctx, 'links', 'products.error.grants_required')
    }
    if (kind === 'bundle') {
      links = d.links ?? []
      if (links.length < 2) issue(ctx, 'links', 'products.error.bundle_min')
    }
    if (kind === 'live_event') {
      const tz = d.eventTimezone || 'UTC'
      if (!isTimeZone(tz)) issue(ctx, 'eventTimezone', 'products.error.timezone')
      else if (!d.eventStartsAt) issue(ctx, 'eventStartsAt', 'validation.required')
      else {
        const at = zonedToEpoch(d.eventStartsAt, tz)
        if (at === null) issue(ctx, 'eventStartsAt', 'products.error.date')
        fields.eventStartsAt = at
      }
      fields.eventTimezone = tz
      if (d.eventJoinUrl && !/^https:\/\/[^\s/]+\.[^\s]+$/i.test(d.eventJoinUrl)) issue(ctx, 'eventJoinUrl', 'products.error.url')
      fields.eventJoinUrl = d.eventJoinUrl || null
    }
    if (kind === 'consultation') {
      const minutes = integer(5, 1440, null).safeParse(d.consultationMinutes)
      if (!minutes.success) ctx.addIssue({ ...minutes.error.issues[0]!, path: ['consultationMinutes'] })
      else fields.consultationMinutes = minutes.data
    }
    if (kind === 'physical') {
      fields.shippingCourierPrice = d.shippingCourierPrice
      fields.shippingLockerPrice = d.shippingLockerPrice
    }
    if (failed) return z.NEVER
    return { fields, prices, links }
  })
}

/** FormData → the object the schemas read (`links` may repeat: checkboxes). */
export function productFormInput(form: FormData) {
  const out: Record<string, string | string[]> = {}
  for (const [name, value] of form) {
    if (typeof value !== 'string') continue
    if (name === 'links') out.links = [...((out.links as string[]) ?? []), value]
    else if (!(name in out)) out[name] = value
  }
  return out
}

/** What the form shows for a saved product (money as typed in the page's language). */
export function productFormValues(product: Product, prices: Array<{ name: string; amount: number }>, links: string[], locale: Locale): FormValues {
  const on = (b: boolean) => (b ? 'on' : '')
  const tz = product.eventTimezone ?? 'UTC'
  return {
    title: product.title,
    slug: product.slug,
    description: product.description,
    category: product.category,
    difficulty: product.difficulty ?? '',
    isFree: on(product.isFree),
    price: formatMoneyInput(prices[0]?.amount, locale),
    priceName: prices[0]?.name ?? '',
    price2: formatMoneyInput(prices[1]?.amount, locale),
    price2Name: prices[1]?.name ?? '',
    price3: formatMoneyInput(prices[2]?.amount, locale),
    price3Name: prices[2]?.name ?? '',
    vatRate: product.vatRate === null ? 'zw' : String(product.vatRate),
    hasPromo: on(product.promoPrice !== null),
    promoPrice: formatMoneyInput(product.promoPrice, locale),
    promoStartsAt: isoDate(product.promoStartsAt),
    promoEndsAt: isoDate(product.promoEndsAt),
    promoLimit: String(product.promoLimit),
    accessDays: String(product.accessDays),
    accessUntil: isoDate(product.accessUntil),
    saleLimit: String(product.saleLimit),
    hidden: on(product.hidden),
    seoTitle: product.seoTitle,
    seoDescription: product.seoDescription,
    commentsEnabled: on(product.commentsEnabled),
    freeRequiresLogin: on(product.freeRequiresLogin),
    membershipPeriod: product.membershipPeriod === null ? '' : String(product.membershipPeriod),
    membershipGrantsAll: on(product.membershipGrantsAll),
    links: links.join(','),
    eventStartsAt: product.eventStartsAt ? epochToZoned(product.eventStartsAt, tz) : '',
    eventTimezone: product.eventTimezone ?? '',
    eventJoinUrl: product.eventJoinUrl ?? '',
    consultationMinutes: product.consultationMinutes === null ? '' : String(product.consultationMinutes),
    shippingCourierPrice: formatMoneyInput(product.shippingCourierPrice, locale),
    shippingLockerPrice: formatMoneyInput(product.shippingLockerPrice, locale),
  }
}

// ---- sections ---------------------------------------------------------------------------------

type SectionProps = { values: FormValues; errors: FieldErrors }

function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <Card className="space-y-4" data-product-section={id}>
      <h2 className="text-lg font-semibold">{title}</h2>
      {children}
    </Card>
  )
}

function Checkbox({ name, label, hint, checked }: { name: string; label: string; hint?: string; checked: boolean }) {
  const id = useId()
  // The hint stays out of the label, so the accessible name is the label alone.
  return (
    <div className="flex items-start gap-2 text-sm">
      <input id={id} type="checkbox" name={name} defaultChecked={checked} className="mt-1" aria-describedby={hint ? `${id}-hint` : undefined} />
      <div>
        <label htmlFor={id} className="font-medium">
          {label}
        </label>
        {hint ? (
          <p id={`${id}-hint`} className="text-slate-500">
            {hint}
          </p>
        ) : null}
      </div>
    </div>
  )
}

export function ProductDetailsFields({ values, errors, withSlug = false }: SectionProps & { withSlug?: boolean }) {
  const t = useT()
  return (
    <>
      <Field label={t('products.field.title')} name="title" defaultValue={values.title} maxLength={TITLE_MAX} required error={errors.title} />
      {withSlug ? <Field label={t('products.field.slug')} name="slug" defaultValue={values.slug} maxLength={60} hint={t('products.field.slug_hint')} error={errors.slug} /> : null}
      <TextAreaField name="description" label={t('products.field.description')} defaultValue={values.description ?? ''} error={errors.description} maxLength={DESCRIPTION_MAX} />
      <p className="-mt-3 text-xs text-slate-500">{t('products.field.description_hint')}</p>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('products.field.category')} name="category" defaultValue={values.category} maxLength={CATEGORY_MAX} error={errors.category} />
        <SelectField
          label={t('products.field.difficulty')}
          name="difficulty"
          defaultValue={values.difficulty ?? ''}
          error={errors.difficulty}
          options={[{ value: '', label: t('products.difficulty.none') }, ...DIFFICULTIES.map((d) => ({ value: d, label: t(`products.difficulty.${d}`) }))]}
        />
      </div>
    </>
  )
}

/** The rate a new product starts with: the school's (issue 23), when it is one of the offered rates. */
function defaultRate(tax: ProductTax) {
  const own = String(tax.defaultVatRate)
  return (VAT_RATES as readonly string[]).includes(own) ? own : '23'
}

type ProductTax = { vatMode: 'vat' | 'none'; defaultVatRate: number }

export function ProductPricingSection({ values, errors, currency, tax }: SectionProps & { currency: string; tax: ProductTax }) {
  const t = useT()
  const hint = t('products.field.money_hint', { currency })
  return (
    <Section title={t('products.section.pricing')} id="pricing">
      <Checkbox name="isFree" label={t('products.field.is_free')} hint={t('products.field.is_free_hint')} checked={values.isFree === 'on'} />
      {(['', '2', '3'] as const).map((n, i) => (
        <div key={n} className="grid gap-4 sm:grid-cols-2" data-price-variant={i + 1}>
          <Field
            label={i === 0 ? t('products.field.price') : t('products.field.price_variant', { n: i + 1 })}
            name={`price${n}`}
            inputMode="decimal"
            autoComplete="off"
            placeholder="49,99"
            defaultValue={values[`price${n}`]}
            hint={hint}
            error={errors[`price${n}`]}
          />
          <Field label={t('products.field.variant_name', { n: i + 1 })} name={`price${n}Name`} maxLength={VARIANT_NAME_MAX} defaultValue={values[`price${n}Name`]} error={errors[`price${n}Name`]} />
        </div>
      ))}
      {tax.vatMode === 'none' ? (
        // No VAT at this school: the product keeps (or starts with) the school's rate for a later switch to VAT; checkout charges none.
        <>
          <input type="hidden" name="vatRate" value={values.vatRate || defaultRate(tax)} />
          <p className="text-sm text-slate-600" data-vat-none>
            {t('tax.product_none')}
          </p>
        </>
      ) : (
        <SelectField
          label={t('products.field.vat')}
          name="vatRate"
          defaultValue={values.vatRate || defaultRate(tax)}
          error={errors.vatRate}
          options={VAT_RATES.map((r) => ({ value: r, label: r === 'zw' ? t('products.vat.exempt') : `${r}%` }))}
        />
      )}
    </Section>
  )
}

export function ProductPromotionSection({ values, errors }: SectionProps) {
  const t = useT()
  return (
    <Section title={t('products.section.promotion')} id="promotion">
      <Checkbox name="hasPromo" label={t('products.field.has_promo')} hint={t('products.field.has_promo_hint')} checked={values.hasPromo === 'on'} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t('products.field.promo_price')} name="promoPrice" inputMode="decimal" autoComplete="off" defaultValue={values.promoPrice} error={errors.promoPrice} />
        <Field label={t('products.field.promo_limit')} name="promoLimit" inputMode="numeric" defaultValue={values.promoLimit || '-1'} hint={t('products.field.promo_limit_hint')} error={errors.promoLimit} />
        <Field label={t('products.field.promo_starts')} name="promoStartsAt" type="date" defaultValue={values.promoStartsAt} error={errors.promoStartsAt} />
        <Field label={t('products.field.promo_ends')} name="promoEndsAt" type="date" defaultValue={values.promoEndsAt} error={errors.promoEndsAt} />
      </div>
    </Section>
  )
}

export function ProductAccessSection({ values, errors }: SectionProps) {
  const t = useT()
  return (
    <Section title={t('products.section.access')} id="access">
      <div className="grid gap-4 sm:grid-cols-3">
        <Field label={t('products.field.access_days')} name="accessDays" inputMode="numeric" defaultValue={values.accessDays || '0'} hint={t('products.field.zero_none')} error={errors.accessDays} />
        <Field label={t('products.field.access_until')} name="accessUntil" type="date" defaultValue={values.accessUntil} hint={t('products.field.empty_none')} error={errors.accessUntil} />
        <Field label={t('products.field.sale_limit')} name="saleLimit" inputMode="numeric" defaultValue={values.saleLimit || '0'} hint={t('products.field.zero_none')} error={errors.saleLimit} />
      </div>
      <Checkbox name="hidden" label={t('products.field.hidden')} hint={t('products.field.hidden_hint')} checked={values.hidden === 'on'} />
    </Section>
  )
}

export function ProductSeoSection({ values, errors }: SectionProps) {
  const t = useT()
  return (
    <Section title={t('products.section.seo')} id="seo">
      <Field label={t('products.field.seo_title')} name="seoTitle" maxLength={SEO_TITLE_MAX} defaultValue={values.seoTitle} hint={t('products.field.max_chars', { count: SEO_TITLE_MAX })} error={errors.seoTitle} />
      <TextAreaField name="seoDescription" label={t('products.field.seo_description')} defaultValue={values.seoDescription ?? ''} rows={3} maxLength={SEO_DESCRIPTION_MAX} error={errors.seoDescription} />
    </Section>
  )
}

export type LinkCandidate = { id: string; kind: ProductKind; title: string }

/** Fields only some kinds have; null for kinds without any. */
export function ProductKindSection({ kind, values, errors, candidates, defaultTimezone }: SectionProps & { kind: ProductKind; candidates: LinkCandidate[]; defaultTimezone: string }) {
  const t = useT()
  const message = useFieldMessage()
  const chosen = new Set((values.links ?? '').split(',').filter(Boolean))
  const linkList = (
    <fieldset className="space-y-2" data-product-links>
      <legend className="text-sm font-medium text-slate-700">{kind === 'bundle' ? t('products.field.bundle_courses') : t('products.field.membership_products')}</legend>
      {candidates.length === 0 ? <p className="text-sm text-slate-500">{t('products.field.no_candidates')}</p> : null}
      <ul className="grid gap-1 sm:grid-cols-2">
        {candidates.map((c) => (
          <li key={c.id}>
            <label className="flex items-center gap-2 text-sm">
              <input type="checkbox" name="links" value={c.id} defaultChecked={chosen.has(c.id)} />
              <span>
                {c.title} <span className="text-slate-500">({t(`products.kind.${c.kind}`)})</span>
              </span>
            </label>
          </li>
        ))}
      </ul>
      {errors.links ? (
        <p className="text-sm text-red-600" data-field-error="links">
          {message(errors.links)}
        </p>
      ) : null}
    </fieldset>
  )
  if (kind === 'course') {
    return (
      <Section title={t('products.section.kind.course')} id="kind">
        <Checkbox name="commentsEnabled" label={t('products.field.comments_enabled')} hint={t('products.field.comments_enabled_hint')} checked={values.commentsEnabled === 'on'} />
        <Checkbox name="freeRequiresLogin" label={t('products.field.free_requires_login')} hint={t('products.field.free_requires_login_hint')} checked={values.freeRequiresLogin === 'on'} />
      </Section>
    )
  }
  if (kind === 'membership') {
    return (
      <Section title={t('products.section.kind.membership')} id="kind">
        <SelectField
          label={t('products.field.membership_period')}
          name="membershipPeriod"
          defaultValue={values.membershipPeriod || '1'}
          error={errors.membershipPeriod}
          options={MEMBERSHIP_PERIODS.map((p) => ({ value: String(p), label: t(`products.period.${p === -1 ? 'lifetime' : p}`) }))}
        />
        <Checkbox name="membershipGrantsAll" label={t('products.field.grants_all')} hint={t('products.field.grants_all_hint')} checked={values.membershipGrantsAll === 'on'} />
        {linkList}
      </Section>
    )
  }
  if (kind === 'bundle') {
    return (
      <Section title={t('products.section.kind.bundle')} id="kind">
        {linkList}
      </Section>
    )
  }
  if (kind === 'live_event') {
    return (
      <Section title={t('products.section.kind.live_event')} id="kind">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('products.field.event_starts')} name="eventStartsAt" type="datetime-local" defaultValue={values.eventStartsAt} error={errors.eventStartsAt} />
          <Field label={t('products.field.event_timezone')} name="eventTimezone" defaultValue={values.eventTimezone || defaultTimezone} hint={t('products.field.event_timezone_hint')} error={errors.eventTimezone} />
        </div>
        <Field label={t('products.field.event_join_url')} name="eventJoinUrl" type="url" defaultValue={values.eventJoinUrl} hint={t('products.field.event_join_url_hint')} error={errors.eventJoinUrl} />
      </Section>
    )
  }
  if (kind === 'consultation') {
    return (
      <Section title={t('products.section.kind.consultation')} id="kind">
        <Field label={t('products.field.consultation_minutes')} name="consultationMinutes" inputMode="numeric" defaultValue={values.consultationMinutes || '60'} error={errors.consultationMinutes} />
      </Section>
    )
  }
  if (kind === 'physical') {
    return (
      <Section title={t('products.section.kind.physical')} id="kind">
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label={t('products.field.shipping_courier')} name="shippingCourierPrice" inputMode="decimal" defaultValue={values.shippingCourierPrice} hint={t('products.field.shipping_hint')} error={errors.shippingCourierPrice} />
          <Field label={t('products.field.shipping_locker')} name="shippingLockerPrice" inputMode="decimal" defaultValue={values.shippingLockerPrice} hint={t('products.field.shipping_hint')} error={errors.shippingLockerPrice} />
        </div>
      </Section>
    )
  }
  return null
}

/** Status badge of a product row: hidden, published or draft. */
export function ProductStatus({ published, hidden }: { published: boolean; hidden: boolean }) {
  const t = useT()
  const status = hidden ? 'hidden' : published ? 'published' : 'draft'
  return (
    <span
      data-product-status={status}
      className={cx('rounded px-2 py-0.5 text-xs font-semibold', status === 'published' ? 'bg-emerald-100 text-emerald-800' : status === 'hidden' ? 'bg-amber-100 text-amber-800' : 'bg-slate-100 text-slate-700')}
    >
      {t(`products.status.${status}`)}
    </span>
  )
}
