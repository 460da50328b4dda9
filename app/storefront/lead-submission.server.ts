// POST /lead (seed 000 §2 widget 2, §3 "Lead", §5, §7): the values of one lead form block,
// validated with a zod schema built from THAT block's configured fields. Unknown names, values over
// 1000 characters, missing required fields, bad emails and options that were never offered are
// refused before anything is written; hidden fields come from the block's configuration, never
// from the client. A stored lead notifies the school's owners (unless they turned lead emails off).
import { z } from 'zod'
import type { ShardDb } from '#app/db/client.server.ts'
import { takeActionTurn, type ThrottledAction } from '#app/models/action-throttle.server.ts'
import { getTranslator, type Locale } from '#app/i18n/i18n.ts'
import { enqueueMailingSubscription } from '#app/mailing/subscribe.server.ts'
import { enqueueEmail, type OutgoingEmail } from '#app/models/email-outbox.server.ts'
import { getPublishedLeadFormBlock, listOwnerRecipients, saveLead, type LeadValues } from '#app/models/lead.server.ts'
import { getNotificationPrefs } from '#app/models/page-settings.server.ts'
import type { MailJob, MailingJob } from '#app/utils/env.server.ts'
import { msg } from '#app/utils/validation.ts'
import { parseBlockProps, type BlockProps } from '#app/domain/blocks.ts'

export const LEAD_VALUE_MAX = 1000
/** Seed 000 §5: non-space text, at sign, non-space text, dot, non-space text. */
export const LEAD_EMAIL_PATTERN = /^\S+@\S+\.\S+$/
/** One stored lead per IP and school in this window (floods refused, nothing written). */
export const LEAD_THROTTLE_MS = 5_000
export const LEAD_THROTTLE_ACTION = 'lead_form' satisfies ThrottledAction

type LeadFormProps = BlockProps<'lead_form'>
export type LeadErrors = Record<string, string>
export type LeadParse = { ok: true; values: LeadValues; email: string; name: string } | { ok: false; status: 400 | 422; errors: LeadErrors }

const rawValue = z
  .union([z.string(), z.boolean(), z.number()])
  .transform((v) => (typeof v === 'boolean' ? (v ? 'on' : '') : String(v)))
  .pipe(z.string().max(LEAD_VALUE_MAX, { message: msg('validation.max_chars', { count: LEAD_VALUE_MAX }) }))
  .optional()

const isChecked = (v: string | undefined) => v !== undefined && v !== '' && v !== 'false' && v !== '0' && v !== 'off'

/** The zod schema of one lead form: every configured field by name, the hidden names tolerated, nothing else. */
export function buildLeadSchema(props: LeadFormProps) {
  const shape: Record<string, z.ZodTypeAny> = { block_id: z.string().max(100).optional() }
  for (const hidden of props.hiddenFields) shape[hidden.name] = rawValue
  for (const field of props.fields) {
    if (field.type === 'checkbox') {
      shape[field.name] = rawValue
        .transform(isChecked)
        .refine((v) => !field.required || v, { message: msg('validation.required') })
      continue
    }
    let schema: z.ZodTypeAny = rawValue.transform((v) => (v ?? '').trim())
    schema = schema.refine((v: string) => !field.required || v !== '', { message: msg('validation.required') })
    if (field.type === 'email') schema = schema.refine((v: string) => v === '' || (v.length <= 254 && LEAD_EMAIL_PATTERN.test(v)), { message: msg('validation.email') })
    if (field.type === 'select' || field.type === 'radio') {
      const offered = new Set(field.options.map((o) => o.value))
      schema = schema.refine((v: string) => v === '' || offered.has(v), { message: msg('validation.in') })
    }
    shape[field.name] = schema
  }
  return z.object(shape).strict()
}

function issueKey(message: string) {
  try {
    return (JSON.parse(message.replace(/^i18n:/, '')) as { key: string }).key
  } catch {
    return 'validation.invalid'
  }
}

/** Validate submitted values against the block's fields: the lead to store, or field errors (400 for unknown names). */
export function parseLead(props: LeadFormProps, input: Record<string, unknown>): LeadParse {
  const result = buildLeadSchema(props).safeParse(input)
  if (!result.success) {
    const errors: LeadErrors = {}
    let unknown = false
    for (const issue of result.error.issues) {
      if (issue.code === z.ZodIssueCode.unrecognized_keys) {
        unknown = true
        for (const key of issue.keys) errors[key.slice(0, 40)] ??= 'widgets.lead.unknown_field'
        continue
      }
      const field = String(issue.path[0] ?? 'form')
      errors[field] ??= issueKey(issue.message)
    }
    return { ok: false, status: unknown ? 400 : 422, errors }
  }
  const data = result.data as Record<string, string | boolean | undefined>
  const values: LeadValues = {}
  for (const field of props.fields) values[field.name] = data[field.name] ?? (field.type === 'checkbox' ? false : '')
  // Hidden fields: the configured value, whatever the client sent.
  for (const hidden of props.hiddenFields) values[hidden.name] = hidden.value
  const emailField = props.fields.find((f) => f.type === 'email' && typeof values[f.name] === 'string' && values[f.name] !== '')
  if (!emailField) return { ok: false, status: 422, errors: { [props.fields.find((f) => f.type === 'email')?.name ?? 'email']: 'validation.required' } }
  const name = typeof values.name === 'string' ? values.name : ''
  return { ok: true, values, email: String(values[emailField.name]).toLowerCase(), name }
}

/** Take this IP's turn: false (and nothing written) when it stored a lead within the window. */
export function takeLeadTurn(db: ShardDb, tenantId: string, ip: string, now = Date.now()) {
  return takeActionTurn(db, tenantId, `ip:${ip.slice(0, 64)}`, LEAD_THROTTLE_ACTION, now, LEAD_THROTTLE_MS)
}

function escapeHtml(value: string) {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!)
}

/** The owner's "new lead" email in the school's language; every value escaped. */
export function leadNotificationEmail({ locale, school, page, to, email, values, url }: { locale: Locale; school: string; page: string; to: string; email: string; values: LeadValues; url: string }): OutgoingEmail {
  const t = getTranslator(locale)
  const rows = Object.entries(values).map(([k, v]) => [k, typeof v === 'boolean' ? (v ? '✓' : '✗') : v] as const)
  const intro = t('mail.lead.intro', { page, school })
  const text = [intro, t('mail.lead.fields'), ...rows.map(([k, v]) => `${k}: ${v}`), `${t('mail.lead.action')}: ${url}`].join('\n')
  const html =
    `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#0f172a;max-width:560px;margin:0 auto;padding:24px">` +
    `<p>${escapeHtml(intro)}</p><p>${escapeHtml(t('mail.lead.fields'))}</p><table>` +
    rows.map(([k, v]) => `<tr><th style="text-align:left;padding-right:12px">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`).join('') +
    `</table><p><a href="${escapeHtml(url)}">${escapeHtml(t('mail.lead.action'))}</a></p></body></html>`
  return { template: 'lead_notification', to, subject: t('mail.lead.subject', { school, email }), text, html }
}

export type SubmitLeadResult =
  | { ok: true; status: 'added' | 'updated'; pagePath: string; redirectTo: string }
  | { ok: false; status: 400 | 404 | 422 | 429; errors: LeadErrors; pagePath: string | null }

/** The whole POST /lead: block lookup, validation, throttle, store, notify. Nothing is written on any refusal. */
export async function submitLead(
  /** `origin`: the school's configured one (`schoolEmailOrigin`), never the request's (issue 19 §6). */
  deps: { db: ShardDb; queue: Queue<MailJob> | undefined; origin: string; mailingQueue?: Queue<MailingJob> },
  tenant: { id: string; name: string; language: Locale },
  ip: string,
  input: Record<string, unknown>,
  now = Date.now(),
): Promise<SubmitLeadResult> {
  const blockId = typeof input.block_id === 'string' ? input.block_id : ''
  const block = blockId ? await getPublishedLeadFormBlock(deps.db, tenant.id, blockId) : undefined
  if (!block) return { ok: false, status: 404, errors: {}, pagePath: null }
  let stored: unknown
  try {
    stored = JSON.parse(block.props)
  } catch {
    return { ok: false, status: 404, errors: {}, pagePath: null }
  }
  const props = parseBlockProps('lead_form', stored)
  if (!props.success) return { ok: false, status: 404, errors: {}, pagePath: null }
  const pagePath = `/p/${block.slug}`
  const lead = parseLead(props.data, input)
  if (!lead.ok) return { ok: false, status: lead.status, errors: lead.errors, pagePath }
  if (!(await takeLeadTurn(deps.db, tenant.id, ip, now))) return { ok: false, status: 429, errors: { form: 'widgets.lead.throttled' }, pagePath }
  const saved = await saveLead(deps.db, tenant.id, { email: lead.email, name: lead.name, source: `subpage:${block.slug}`, fields: lead.values }, now)
  const [prefs, owners] = await Promise.all([getNotificationPrefs(deps.db, tenant.id), listOwnerRecipients(deps.db, tenant.id)])
  if (prefs.lead) {
    const url = new URL('/home/leads', deps.origin).toString()
    for (const owner of owners) {
      await enqueueEmail(deps.db, deps.queue, tenant.id, leadNotificationEmail({ locale: tenant.language, school: tenant.name, page: pagePath, to: owner.email, email: lead.email, values: lead.values, url }))
    }
  }
  // The school's mailing list (issue 9): consent and settings are checked by the mail worker; never throws.
  await enqueueMailingSubscription({ MAILING_QUEUE: deps.mailingQueue }, { tenantId: tenant.id, source: 'lead', subjectId: saved.id })
  return { ok: true, status: saved.status, pagePath, redirectTo: props.data.redirectTo }
}
