// Subscribing buyers and leads to the school's mailing list (issue 9 item 3), through the
// coursefront-mailing queue: the app enqueues a MailingJob after its own write (never able to fail
// it); the mail worker (workers/mail/src/mailing.ts) runs `subscribeFromJob` per message.
import { z } from 'zod'
import type { ShardDb } from '#app/db/client.server.ts'
import { getActiveIntegrationOfKind, integrationSettings, openBusinessCredentials } from '#app/models/business-integration.server.ts'
import { claimMailingMember, getLeadForMailing, markMailingMemberAttemptFailed, markMailingMemberSubscribed } from '#app/models/mailing-member.server.ts'
import { getTransaction, type Buyer } from '#app/models/transaction.server.ts'
import type { MailingJob } from '#app/utils/env.server.ts'
import { MailchimpError, mailchimpForEnv, type FetchLike, type MailchimpEnv } from './mailchimp.server.ts'

export const MailingJobSchema = z.object({
  tenantId: z.string().min(1).max(100),
  source: z.enum(['buyer', 'lead']),
  subjectId: z.string().min(1).max(100),
})

/** What the settings page stores in business_integrations.settings for Mailchimp. */
export const MailingSettingsSchema = z.object({
  listId: z.string().default(''),
  listName: z.string().default(''),
  subscribeBuyers: z.boolean().default(true),
  subscribeLeads: z.boolean().default(true),
})
export type MailingSettings = z.infer<typeof MailingSettingsSchema>

export function mailingSettings(settings: Record<string, unknown>): MailingSettings {
  const parsed = MailingSettingsSchema.safeParse(settings)
  return parsed.success ? parsed.data : MailingSettingsSchema.parse({})
}

/**
 * Queue a subscription. Never throws: the sale or the lead is already stored, and a mailing list
 * is not worth failing it for (a lost message only means one address less on the list).
 */
export async function enqueueMailingSubscription(env: { MAILING_QUEUE?: Queue<MailingJob> }, job: MailingJob) {
  if (!env.MAILING_QUEUE) return false
  try {
    await env.MAILING_QUEUE.send(job, { contentType: 'json' })
    return true
  } catch (error) {
    console.error(JSON.stringify({ event: 'mailing_enqueue_failed', tenantId: job.tenantId, source: job.source, subjectId: job.subjectId, error: String(error) }))
    return false
  }
}

/** A lead agreed to mail when a checkbox field named `consent` (or `consent_…`) was ticked. */
export function leadConsented(fields: Record<string, unknown>) {
  return Object.entries(fields).some(([name, value]) => /^consent(_|$)/i.test(name) && value === true)
}

const firstWord = (name: string) => name.trim().split(/\s+/)[0] ?? ''

export type MailingEnv = MailchimpEnv & { INTEGRATIONS_KEY?: string }

export type SubscribeOutcome =
  | { kind: 'skipped'; reason: 'no_integration' | 'buyers_off' | 'leads_off' | 'no_subject' | 'no_consent' | 'already_subscribed' }
  | { kind: 'subscribed'; memberId: string; externalId: string }
  | { kind: 'failed'; memberId: string; error: string }
  | { kind: 'retry'; memberId: string; error: string; retryAfterSeconds: number | null }

/**
 * One job: the school's enabled mailing integration and its settings decide whether this person
 * is subscribed; the mailing_members row (unique per address) makes a repeat a no-op once
 * subscribed; Mailchimp's PUT is an upsert, so even a race leaves one member. `final` = the queue
 * will not deliver it again: a retryable failure then ends 'failed' too.
 */
export async function subscribeFromJob(db: ShardDb, env: MailingEnv, job: MailingJob, opts: { final: boolean; fetch?: FetchLike; now?: number }): Promise<SubscribeOutcome> {
  const integration = await getActiveIntegrationOfKind(db, job.tenantId, 'mailing')
  if (!integration || integration.provider !== 'mailchimp') return { kind: 'skipped', reason: 'no_integration' }
  const settings = mailingSettings(integrationSettings(integration))
  if (job.source === 'buyer' && !settings.subscribeBuyers) return { kind: 'skipped', reason: 'buyers_off' }
  if (job.source === 'lead' && !settings.subscribeLeads) return { kind: 'skipped', reason: 'leads_off' }

  let person: { email: string; firstName: string } | null = null
  if (job.source === 'buyer') {
    const tx = await getTransaction(db, job.tenantId, job.subjectId)
    if (tx && tx.status === 'completed') {
      let buyer: Partial<Buyer> = {}
      try {
        buyer = JSON.parse(tx.buyer || '{}') as Partial<Buyer>
      } catch {
        /* no buyer, nothing to subscribe */
      }
      if (typeof buyer.email === 'string' && buyer.email.includes('@')) person = { email: buyer.email, firstName: firstWord(String(buyer.name ?? '')) }
    }
  } else {
    const lead = await getLeadForMailing(db, job.tenantId, job.subjectId)
    if (lead && !leadConsented(lead.fields)) return { kind: 'skipped', reason: 'no_consent' }
    if (lead) person = { email: lead.email, firstName: lead.name.trim() }
  }
  if (!person) return { kind: 'skipped', reason: 'no_subject' }

  const member = await claimMailingMember(db, job.tenantId, { integrationId: integration.id, email: person.email, source: job.source }, opts.now)
  if (member.status === 'subscribed') return { kind: 'skipped', reason: 'already_subscribed' }

  const credentials = env.INTEGRATIONS_KEY ? await openBusinessCredentials(env.INTEGRATIONS_KEY, integration) : null
  if (!credentials?.apiKey || !settings.listId) {
    const error = 'The Mailchimp credentials cannot be read: connect Mailchimp again.'
    await markMailingMemberAttemptFailed(db, job.tenantId, member.id, error, true, opts.now)
    return { kind: 'failed', memberId: member.id, error }
  }
  try {
    const client = mailchimpForEnv(env, credentials.apiKey, opts.fetch)
    const result = await client.upsertMember(settings.listId, { email: person.email, firstName: person.firstName || undefined })
    await markMailingMemberSubscribed(db, job.tenantId, member.id, result.id, opts.now)
    return { kind: 'subscribed', memberId: member.id, externalId: result.id }
  } catch (error) {
    if (!(error instanceof MailchimpError)) throw error
    const final = !error.retryable || opts.final
    await markMailingMemberAttemptFailed(db, job.tenantId, member.id, error.message, final, opts.now)
    return final ? { kind: 'failed', memberId: member.id, error: error.message } : { kind: 'retry', memberId: member.id, error: error.message, retryAfterSeconds: error.retryAfterSeconds }
  }
}
