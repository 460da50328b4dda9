// /home/integrations/mailchimp (issue 9 item 3; seed 001 §3 "Mailchimp needs an API key and a list
// id; the list needs an FNAME merge tag", §5 "a duplicate integration is rejected", §8
// 'Integration created/deleted'): connect the school's Mailchimp audience — the key, the audience
// and its FNAME merge tag are checked with Mailchimp (the local peer in development) before
// anything is written, then the key is sealed and only its last 4 characters are ever shown —
// choose whom to subscribe, see the latest subscriptions, disconnect after typing DELETE.
// Owners and admins only.
import { redirect, type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/cloudflare'
import { useActionData, useLoaderData } from '@remix-run/react'
import { z } from 'zod'
import { MailchimpPage, type ActionData } from '#app/mailing/components/mailchimp-page.tsx'
import { dataCenterOf, keyHint, MailchimpError, mailchimpForEnv } from '#app/mailing/mailchimp.server.ts'
import { mailingSettings } from '#app/mailing/subscribe.server.ts'
import { createBusinessIntegration, deleteBusinessIntegration, DuplicateBusinessIntegrationError, integrationSettings, listBusinessIntegrations } from '#app/models/business-integration.server.ts'
import { deleteMailingMembersOfIntegration, listMailingMembers, updateMailingIntegrationSettings } from '#app/models/mailing-member.server.ts'
import { requireStaff } from '#app/auth/staff.server.ts'
import { redirectWithFlash } from '#app/utils/flash.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { getT } from '#app/utils/request.server.ts'
import { formError } from '#app/utils/responses.server.ts'
import { type FormValues, msg, parseWith, readFormFields } from '#app/utils/validation.ts'

const PAGE = '/home/integrations/mailchimp'
const done = (request: Request, outcome: 'created' | 'deleted' | 'saved') => redirectWithFlash(request, PAGE, { done: outcome, message: `mailing.done.${outcome}` }, { status: 303 })
const MEMBERS_SHOWN = 20

const checkbox = z
  .string()
  .optional()
  .transform((v) => v === 'on' || v === 'true' || v === '1')

const IntentSchema = z.discriminatedUnion('intent', [
  z.object({
    intent: z.literal('connect'),
    apiKey: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1).max(100).refine((k) => dataCenterOf(k) !== null, { message: msg('mailing.error.key_format') })),
    listId: z
      .string()
      .transform((s) => s.trim())
      .pipe(z.string().min(1).max(50).regex(/^[A-Za-z0-9]+$/, { message: msg('mailing.error.list_format') })),
    subscribeBuyers: checkbox,
    subscribeLeads: checkbox,
  }),
  z.object({ intent: z.literal('options'), subscribeBuyers: checkbox, subscribeLeads: checkbox }),
  z.object({ intent: z.literal('disconnect'), confirm: z.string().max(50).optional() }),
])

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: data?.pageTitle }]

async function mailingIntegration(context: LoaderFunctionArgs['context'], tenantId: string) {
  return (await listBusinessIntegrations(context.db, tenantId)).find((r) => r.kind === 'mailing')
}

export async function loader(args: LoaderFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const integration = await mailingIntegration(context, tenant.id)
  const settings = integration ? mailingSettings(integrationSettings(integration)) : null
  const members = integration ? await listMailingMembers(context.db, tenant.id, integration.id, MEMBERS_SHOWN) : []
  return {
    pageTitle: `${getT(request, context)('mailing.title')} · ${tenant.name}`,
    // Never the sealed key: its hint (last 4) was computed when it was saved.
    connected:
      integration && settings
        ? { id: integration.id, keyHint: integration.publicRef, listId: settings.listId, listName: settings.listName, subscribeBuyers: settings.subscribeBuyers, subscribeLeads: settings.subscribeLeads, enabled: integration.enabled, createdAt: integration.createdAt }
        : null,
    members: members.map((m) => ({ id: m.id, email: m.email, source: m.source, status: m.status, error: m.error, updatedAt: m.updatedAt })),
  }
}

// Not a staffAction: a refused form echoes the fields (the key excepted) with 422, an unknown intent too.
export async function action(args: ActionFunctionArgs) {
  const { tenant } = await requireStaff(args)
  const { request, context } = args
  const input = await readFormFields(request)
  if (!input) return formError({ form: { key: 'validation.invalid' } }, {}, 400)
  // Echoed back so a refused form keeps what was typed, the key excepted.
  const echo: FormValues = Object.fromEntries(Object.entries(input).filter(([k]) => k !== 'apiKey').map(([k, v]) => [k, v.slice(0, 100)]))
  const parsed = parseWith(IntentSchema, input)
  if (!parsed.ok) return formError(parsed.errors, echo, 422)
  const existing = await mailingIntegration(context, tenant.id)
  const data = parsed.data

  if (data.intent === 'disconnect') {
    if (!existing) throw redirect(PAGE, 303)
    if (data.confirm?.trim() !== 'DELETE') return formError({ confirm: { key: 'mailing.error.confirm_delete' } }, { intent: 'disconnect' }, 422)
    await deleteMailingMembersOfIntegration(context.db, tenant.id, existing.id)
    await deleteBusinessIntegration(context.db, tenant.id, existing.id)
    throw done(request, 'deleted')
  }

  if (data.intent === 'options') {
    if (!existing) throw redirect(PAGE, 303)
    const settings = { ...mailingSettings(integrationSettings(existing)), subscribeBuyers: data.subscribeBuyers, subscribeLeads: data.subscribeLeads }
    await updateMailingIntegrationSettings(context.db, tenant.id, existing.id, settings)
    throw done(request, 'saved')
  }

  const duplicate = { form: { key: 'mailing.error.duplicate' } }
  // One mailing tool per school: refused before the key leaves the server.
  if (existing) return formError(duplicate, echo, 409)
  const env = context.cloudflare.env as Env & { MAILCHIMP_API_URL?: string }
  if (!env.INTEGRATIONS_KEY) return formError({ form: { key: 'mailing.error.not_configured' } }, echo, 503)

  let listName: string
  try {
    const list = await mailchimpForEnv(env, data.apiKey).checkList(data.listId)
    if (!list.hasFname) return formError({ listId: { key: 'mailing.error.no_fname' } }, echo, 422)
    listName = list.name
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error
    if (error.kind === 'auth') return formError({ apiKey: { key: 'mailing.error.key_refused' } }, echo, 422)
    if (error.kind === 'not_found') return formError({ listId: { key: 'mailing.error.list_missing' } }, echo, 422)
    if (error.kind === 'invalid') return formError({ form: { key: 'mailing.error.refused', values: { reason: error.message } } }, echo, 422)
    return formError({ form: { key: 'mailing.error.unavailable' } }, echo, 502)
  }
  try {
    await createBusinessIntegration(context.db, env.INTEGRATIONS_KEY, tenant.id, {
      provider: 'mailchimp',
      credentials: { apiKey: data.apiKey },
      publicRef: keyHint(data.apiKey),
      settings: { listId: data.listId, listName, subscribeBuyers: data.subscribeBuyers, subscribeLeads: data.subscribeLeads },
    })
  } catch (error) {
    if (error instanceof DuplicateBusinessIntegrationError) return formError(duplicate, echo, 409)
    throw error
  }
  throw done(request, 'created')
}

export default function MailchimpRoute() {
  return <MailchimpPage data={useLoaderData<typeof loader>()} action={useActionData<ActionData>()} />
}
