// Membership billing lifecycle (issue 8 item 6; seed 001 §3 periods, §4 membership states).
//
// Start: settleTransaction() creates the row when the purchase completes (membershipStartStatement,
// app/models/membership-lifecycle.server.ts, with every statement this lifecycle runs).
// Renewal, two ways:
//   - providers without subscriptions (test, PayU): runMembershipRenewals() — the cron (server.ts
//     `scheduled`) and the development trigger POST /dev/memberships/renew — charges what is due;
//   - Stripe subscriptions: Stripe charges; its verified invoice.paid / invoice.payment_failed /
//     customer.subscription.deleted events come through the notify route (notify.server.ts) to
//     applySubscriptionNotification().
//
// Exactly once. A scheduled charge is CLAIMED before anything is charged: a pending renewal
// transaction with provider_ref `renewal:{membershipId}:{periodEnd}` (`…:r{n}` for the n-th retry)
// — transactions are unique on (provider, provider_ref), so of two overlapping runs one inserts and
// the other skips, and nothing is charged twice. The outcome is then ONE batch: the renewal
// transaction completed + access extended + the membership's period moved + student.paid, each
// guarded by "this renewal is completed and its access not granted yet" (as settleTransaction does).
// A Stripe event is deduplicated by its id in payment_events (and the renewal by the invoice id).
//
// Failures: at_risk, failedCharges + 1, retried after 1 day, then after 3 days; the third failure in
// a row ends the membership (access ends at currentPeriodEnd, as granted). The first failure emails
// the student. PayU: recurring card-token charges need the PayU peer to support them (not yet), so a
// PayU membership gets a renewal email with a pay link (the product's checkout) instead, on the same
// schedule. Canceled memberships end when their paid period is over.
import { testPaymentsAllowed } from '#app/payments/payment-mode.server.ts'
import { collectorOf } from '#app/domain/payment-confirm.ts'
import type { AppLoadContext } from '@remix-run/cloudflare'
import dayjs from 'dayjs'
import type { ControlDb, ShardDb } from '#app/db/client.server.ts'
import { allShards, controlDb, type DatabaseEnv } from '#app/db/shards.server.ts'
import type { Collector, MembershipStatus, PaymentProvider } from '#app/db/schema.server.ts'
import { isLocale, type Locale } from '#app/i18n/i18n.ts'
import { membershipPaymentProblemEmail, type PaymentProblemKind } from '#app/membership/membership-emails.server.ts'
import { dispatchAppEvents, eventQueues, sweepUnsentAppEvents } from '#app/models/app-event.server.ts'
import { enqueueEmail } from '#app/models/email-outbox.server.ts'
import { listActiveDomainHosts } from '#app/models/domain.server.ts'
import type { Membership } from '#app/models/membership.server.ts'
import {
  completedRenewalStatement,
  endFinishedMemberships,
  failedRenewalStatements,
  getMembership,
  getMembershipBySubscription,
  listDueMemberships,
  renewalGrantStatements,
  subscriptionDeletedStatement,
  subscriptionFailedStatement,
  type RenewalScope,
} from '#app/models/membership-lifecycle.server.ts'
import { paymentEventStatement } from '#app/models/payment-event.server.ts'
import { getProduct } from '#app/models/product.server.ts'
import { getTenantById } from '#app/models/tenant.server.ts'
import { getTenantTax } from '#app/models/school-settings.server.ts'
import { createTransaction, getTransaction, getTransactionByProviderRef, type Buyer } from '#app/models/transaction.server.ts'
import { getUserById } from '#app/models/user.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { schoolEmailOriginById } from '#app/models/school-address.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { formatMoney } from '#app/utils/money.ts'
import { effectiveVatRate, feeSettingsFor, platformFee, vatOfGross } from '#app/payments/pricing.ts'
import { splitPercentOf } from '#app/payments/stripe-adapter.server.ts'
import type { SubscriptionNotification } from '#app/payments/stripe-adapter.server.ts'
import { declineStatusReason, type DeclineReason } from '#app/domain/payment-failure.ts'
import { chargeStoredCard, storedCardDecline } from '#app/payments/test-provider.server.ts'
import { getIntegration } from '#app/models/payment-integration.server.ts'
import { canChargeStoredCard } from '#app/payments/provider.server.ts'
import { integrationAdapter } from '#app/payments/registry.server.ts'


const DAY = 86_400_000
/** Retry after 1 day, then after 3 days; the third failed charge in a row ends the membership. */
export const RETRY_DELAYS_MS = [DAY, 3 * DAY] as const
export const MAX_FAILED_CHARGES = 3
/** A claim still pending after this long belongs to a run that died: the next run takes it over. */
export const STALE_CLAIM_MS = 15 * 60_000
/** Memberships handled per run (the cron runs every 5 minutes; the rest wait for the next run). */
export const RENEWALS_PER_RUN = 100

/** The end of the period after `from` (calendar months, like the purchase's expiry). */
export const addPeriod = (from: number, months: number) => dayjs(from).add(months, 'month').valueOf()

/** The claim key of a scheduled charge: one per period and attempt. */
export function renewalRef(m: Pick<Membership, 'id' | 'currentPeriodEnd' | 'failedCharges'>) {
  return `renewal:${m.id}:${m.currentPeriodEnd ?? 0}${m.failedCharges > 0 ? `:r${m.failedCharges}` : ''}`
}

/** The membership after one more failed charge (pure). */
export function afterFailedCharge(failedCharges: number, now: number): { failedCharges: number; status: MembershipStatus; nextChargeAt: number | null; endedAt: number | null } {
  const failed = failedCharges + 1
  if (failed >= MAX_FAILED_CHARGES) return { failedCharges: failed, status: 'ended', nextChargeAt: null, endedAt: now }
  return { failedCharges: failed, status: 'at_risk', nextChargeAt: now + RETRY_DELAYS_MS[failed - 1]!, endedAt: null }
}

function isUniqueViolation(error: unknown) {
  const text = String((error as Error)?.message) + String((error as { cause?: Error })?.cause?.message)
  return /UNIQUE constraint failed/.test(text)
}

type School = { id: string; name: string; slug: string; language: Locale; feeBasisPoints: number | null; feeFixed: number | null }

async function getSchool(control: ControlDb, tenantId: string): Promise<School | undefined> {
  const row = await getTenantById(control, tenantId)
  return row
    ? { id: row.id, name: row.name, slug: row.slug, language: isLocale(row.language) ? row.language : 'en', feeBasisPoints: row.feeBasisPoints, feeFixed: row.feeFixed }
    : undefined
}

/**
 * Where links in a school's emails lead when there is no request: its active primary domain, else
 * its platform subdomain (https; development passes the request's origin style instead).
 */
export async function schoolOrigin(db: ControlDb, tenantId: string, fallbackHost: string, protocol = 'https:', port = '') {
  const rows = await listActiveDomainHosts(db, tenantId)
  const host = rows.find((r) => r.isPrimary)?.hostname ?? rows.find((r) => r.kind === 'platform_subdomain')?.hostname ?? fallbackHost
  return `${protocol}//${host}${port ? `:${port}` : ''}`
}

type RenewalSnapshot = {
  buyer: string
  invoiceDetails: string | null
  termsAcceptedAt: number
  checkoutPath: string
  productTitle: string
  vatRate: number | null
  productSlug: string
  /** Renewals are collected like the purchase was (a split subscription keeps its destination at Stripe). */
  collector: Collector
  payoutAccountId: string | null
  /** Split: the application_fee_percent Stripe takes of every invoice (set from the purchase). */
  splitFeePercent: number
}

async function renewalSnapshot(db: ShardDb, m: Membership): Promise<RenewalSnapshot | null> {
  const [product, tax] = await Promise.all([getProduct(db, m.tenantId, m.productId), getTenantTax(db, m.tenantId)])
  if (!product) return null
  const first = await getTransaction(db, m.tenantId, m.transactionId)
  let buyer = first?.buyer ?? '{}'
  if (buyer === '{}') {
    const user = await getUserById(db, m.tenantId, m.userId)
    if (user) buyer = JSON.stringify({ name: user.name, email: user.email } satisfies Buyer)
  }
  return {
    buyer,
    invoiceDetails: first?.invoiceDetails ?? null,
    termsAcceptedAt: first?.termsAcceptedAt ?? m.createdAt,
    checkoutPath: first?.checkoutPath ?? `/${product.slug}/checkout`,
    productTitle: product.title,
    // A school without VAT (issue 23) charges none on renewals either, whatever the product's rate.
    vatRate: effectiveVatRate(tax, product.vatRate),
    productSlug: product.slug,
    collector: first?.collector ?? collectorOf(m.integrationId && m.provider ? { id: m.integrationId, provider: m.provider } : null),
    payoutAccountId: first?.payoutAccountId ?? null,
    splitFeePercent: first ? splitPercentOf(first) : 0,
  }
}

/** The renewal transaction's row (minor units; fee per pricing.ts, VAT of the product's rate). */
function renewalRow(m: Membership, school: School, snap: RenewalSnapshot, amount: number, currency: string) {
  return {
    userId: m.userId,
    productId: m.productId,
    productKind: 'membership' as const,
    productTitle: snap.productTitle,
    quantity: 1,
    currency,
    unitAmount: amount,
    totalAmount: amount,
    vatAmount: vatOfGross(amount, snap.vatRate),
    // A split renewal's fee is what Stripe keeps: the subscription's application_fee_percent of the invoice.
    feeAmount: snap.collector === 'split' ? Math.round((amount * snap.splitFeePercent) / 100) : platformFee(amount, feeSettingsFor(currency, school)),
    buyer: snap.buyer,
    invoiceDetails: snap.invoiceDetails,
    termsAcceptedAt: snap.termsAcceptedAt,
    checkoutPath: snap.checkoutPath,
    membershipId: m.id,
    collector: snap.collector,
    payoutAccountId: snap.payoutAccountId,
  }
}

/** The student.paid event of a renewal (what the invoicing and webhook consumers read). */
function renewalPaidEvent(m: Membership, renewalId: string, snap: RenewalSnapshot, amount: number, currency: string, now: number) {
  return {
    transactionId: renewalId,
    membershipId: m.id,
    renewal: true,
    productId: m.productId,
    productKind: 'membership',
    productTitle: snap.productTitle,
    quantity: 1,
    totalAmount: amount,
    vatAmount: vatOfGross(amount, snap.vatRate),
    currency,
    buyer: JSON.parse(snap.buyer || '{}'),
    invoiceDetails: snap.invoiceDetails ? JSON.parse(snap.invoiceDetails) : null,
    completedAt: now,
  }
}

export type RenewalOutcome = {
  membershipId: string
  tenantId: string
  result: 'renewed' | 'failed' | 'ended' | 'skipped'
  /** failed/ended: why; skipped: another run holds the claim. */
  reason?: 'card_declined' | 'no_card' | 'pay_link' | 'claimed' | 'period_over' | 'retries_exhausted' | 'gone' | 'unavailable'
  transactionId?: string
  currentPeriodEnd?: number | null
  nextChargeAt?: number | null
  failedCharges?: number
  emailed?: boolean
}

export type RenewalReport = { now: number; renewed: number; failed: number; ended: number; skipped: number; outcomes: RenewalOutcome[] }

type BillingEnv = DatabaseEnv & Pick<Env, 'MAIL_QUEUE' | 'EVENTS_QUEUE' | 'INVOICING_QUEUE' | 'PLATFORM_HOST' | 'ENVIRONMENT' | 'PUBLIC_PORT' | 'TEST_PAYMENTS_SECRET'>

type RenewalCharge = { ok: true } | { ok: false; reason: 'card_declined' | 'no_card' | 'pay_link' | 'unavailable'; decline?: DeclineReason | null }

/** Providers whose renewal failures send the pay link (no card form of ours can fix them). */
const PAY_LINK_PROVIDERS = new Set(['payu', 'p24'])

async function chargeTestCard(m: Membership, idempotencyKey: string): Promise<RenewalCharge> {
  const result = await chargeStoredCard({ token: m.cardToken, amount: m.amount, currency: m.currency, idempotencyKey })
  if (result.ok) return { ok: true }
  return result.reason === 'card_declined' ? { ok: false, reason: 'card_declined', decline: storedCardDecline(m.cardToken) } : { ok: false, reason: 'no_card' }
}

/**
 * A renewal through the school's own provider with the card it keeps. Counted only as the
 * provider's API confirms it, for this membership's amount and currency (ADR 023).
 */
async function chargeAtProvider(db: ShardDb, env: BillingEnv, m: Membership, idempotencyKey: string, snap: RenewalSnapshot, takenOver: boolean): Promise<RenewalCharge> {
  const fallback: RenewalCharge = PAY_LINK_PROVIDERS.has(m.provider ?? '') ? { ok: false, reason: 'pay_link' } : { ok: false, reason: 'no_card' }
  if (!m.integrationId || !m.provider || !m.cardToken) return fallback
  const integration = await getIntegration(db, m.tenantId, m.integrationId)
  if (!integration || !integration.enabled || integration.provider !== m.provider) return fallback
  const adapter = await integrationAdapter(env as Env, integration)
  if (!adapter || !canChargeStoredCard(adapter)) return fallback
  if (takenOver && adapter.repeatableStoredCharges === false) {
    // The first attempt may have been paid: never a second charge; the claim stays for a person to settle.
    console.error(JSON.stringify({ event: 'membership_renewal_needs_review', tenantId: m.tenantId, membershipId: m.id, provider: m.provider, claimId: idempotencyKey }))
    return { ok: false, reason: 'unavailable' }
  }
  const origin = await schoolEmailOriginById(controlDb(env), env, m.tenantId)
  const buyer = JSON.parse(snap.buyer || '{}') as Partial<Buyer>
  const result = await adapter.chargeStoredCard({
    token: m.cardToken,
    amount: m.amount,
    currency: m.currency,
    idempotencyKey,
    description: snap.productTitle,
    notifyUrl: `${origin ?? ''}/payments/${m.provider}/${m.integrationId}/notify`,
    buyer: { email: buyer.email ?? '', name: buyer.name ?? '' },
  })
  if (!result.ok) return result.reason === 'card_declined' ? { ok: false, reason: 'card_declined', decline: result.declineReason ?? 'payment_failed' } : { ok: false, reason: 'unavailable' }
  if (result.amount !== m.amount || result.currency.toUpperCase() !== m.currency.toUpperCase()) {
    // Never counted: the provider charged something else. Left for the operator, the claim kept.
    console.error(JSON.stringify({ event: 'membership_renewal_mismatch', tenantId: m.tenantId, membershipId: m.id, providerRef: result.providerRef, amount: result.amount, currency: result.currency }))
    return { ok: false, reason: 'unavailable' }
  }
  return { ok: true }
}

/** One due membership: claim, charge, then one batch. */
async function renewOne(db: ShardDb, env: BillingEnv, m: Membership, now: number): Promise<RenewalOutcome> {
  const base = { membershipId: m.id, tenantId: m.tenantId }
  const [school, snap] = await Promise.all([getSchool(controlDb(env), m.tenantId), renewalSnapshot(db, m)])
  if (!school || !snap || m.currentPeriodEnd === null || m.periodMonths <= 0) return { ...base, result: 'skipped', reason: 'gone' }

  // 1. The claim: of two overlapping runs only one inserts this row.
  let claim
  let takenOver = false
  try {
    claim = await createTransaction(db, m.tenantId, { ...renewalRow(m, school, snap, m.amount, m.currency), provider: m.provider, integrationId: m.integrationId, providerRef: renewalRef(m) }, now)
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    // A claim left pending by a run that died mid-way is taken over after a while: the charge is
    // repeated with the same idempotency key (the claim's id) and the batches below are guarded.
    const held = m.provider ? await getTransactionByProviderRef(db, m.tenantId, m.provider, renewalRef(m)) : undefined
    if (!held || held.status !== 'pending' || held.createdAt > now - STALE_CLAIM_MS) return { ...base, result: 'skipped', reason: 'claimed' }
    claim = held
    takenOver = true
  }

  // 2. The charge: the test provider's own card token, or the card the school's provider keeps
  // (issue 25: PayU TOKC_, Tpay, Paylane re-sale, Braintree and PayPal vaults), confirmed through
  // the provider's API. A provider without stored cards (Przelewy24), or PayU without a token, gets
  // the renewal e-mail with a pay link instead.
  const testAllowed = testPaymentsAllowed(env) && !!env.TEST_PAYMENTS_SECRET
  const charge: RenewalCharge =
    m.provider === 'test' && testAllowed
      ? await chargeTestCard(m, claim.id)
      : await chargeAtProvider(db, env, m, claim.id, snap, takenOver)
  if (!charge.ok && charge.reason === 'unavailable') {
    // No final word from the provider: the claim stays; a later run takes it over with the same key.
    return { ...base, result: 'skipped', reason: 'unavailable', transactionId: claim.id }
  }

  // 3a. Paid: one batch.
  if (charge.ok) {
    // The billing anchor stays (a late retry does not move it) unless a whole period was missed.
    const anchored = addPeriod(m.currentPeriodEnd, m.periodMonths)
    const newEnd = anchored > now ? anchored : addPeriod(now, m.periodMonths)
    const results = await db.batch(renewalGrantStatements(db, m, { id: claim.id, claimed: true }, newEnd, renewalPaidEvent(m, claim.id, snap, m.amount, m.currency, now), now))
    const granted = (results[results.length - 1] as unknown[]).length > 0
    if (granted) await dispatchAppEvents(db, eventQueues(env), m.tenantId, now)
    const after = await getMembership(db, m.tenantId, m.id)
    return { ...base, result: 'renewed', transactionId: claim.id, currentPeriodEnd: after?.currentPeriodEnd, nextChargeAt: after?.nextChargeAt, failedCharges: after?.failedCharges }
  }

  // 3b. Not paid: at risk (retry later) or, after the last retry, ended.
  const next = afterFailedCharge(m.failedCharges, now)
  const decline = charge.reason === 'card_declined' ? (charge.decline ?? null) : null
  const [, moved] = await db.batch(failedRenewalStatements(db, m, claim.id, next, decline ? declineStatusReason(decline) : undefined, now))
  let emailed = false
  if (moved.length && m.failedCharges === 0) {
    // Where the student cannot change the card here (PayU's token, Przelewy24), the pay link is the way back in.
    emailed = await sendPaymentProblemEmail(db, env, school, m, snap, charge.reason === 'pay_link' || PAY_LINK_PROVIDERS.has(m.provider ?? '') ? 'pay_link' : 'card', decline)
  }
  return {
    ...base,
    result: next.status === 'ended' ? 'ended' : 'failed',
    reason: next.status === 'ended' ? 'retries_exhausted' : charge.reason,
    transactionId: claim.id,
    currentPeriodEnd: m.currentPeriodEnd,
    nextChargeAt: next.nextChargeAt,
    failedCharges: next.failedCharges,
    emailed,
  }
}

async function sendPaymentProblemEmail(db: ShardDb, env: Pick<Env, 'MAIL_QUEUE' | 'PLATFORM_HOST' | 'ENVIRONMENT' | 'PUBLIC_PORT'>, school: School, m: Membership, snap: RenewalSnapshot, kind: PaymentProblemKind, decline: DeclineReason | null = null) {
  const buyer = JSON.parse(snap.buyer || '{}') as Partial<Buyer>
  const user = await getUserById(db, m.tenantId, m.userId)
  const to = user?.email ?? buyer.email
  if (!to) return false
  // The school's configured address and the deployment's scheme, never a request's Host (issue 19 §6).
  const origin = await schoolEmailOriginById(controlDb(env as BillingEnv), env, m.tenantId)
  if (!origin) return false
  const url = kind === 'pay_link' ? `${origin}/${snap.productSlug}/checkout` : `${origin}/panel`
  await enqueueEmail(
    db,
    env.MAIL_QUEUE,
    m.tenantId,
    membershipPaymentProblemEmail({
      kind,
      locale: school.language,
      school: school.name,
      name: user?.name ?? buyer.name ?? '',
      to,
      product: snap.productTitle,
      amount: formatMoney(m.amount, m.currency, school.language),
      url,
      decline,
    }),
  )
  return true
}

/** Narrowing of a run (tests, the development trigger); the cron runs over every school. */
type Only = RenewalScope

/** The scheduled run: end what is over, charge what is due. Safe to run concurrently. */
export async function runMembershipRenewals(env: BillingEnv, now = Date.now(), options: { limit?: number } & Only = {}): Promise<RenewalReport> {
  const outcomes: RenewalOutcome[] = []
  // Each shard's schools in turn (ADR 033); the claim rows keep concurrent runs apart as before.
  for (const { db } of allShards(env)) {
    for (const r of await endFinishedMemberships(db, now, options)) {
      outcomes.push({ membershipId: r.id, tenantId: r.tenantId, result: 'ended', reason: 'period_over', currentPeriodEnd: r.currentPeriodEnd })
    }
    for (const m of await listDueMemberships(db, now, options.limit ?? RENEWALS_PER_RUN, options)) {
      try {
        outcomes.push(await renewOne(db, env, m, now))
      } catch (error) {
        // One broken membership must not stop the others; its claim (if any) keeps it from double charges.
        console.error(JSON.stringify({ event: 'membership_renewal_failed', tenantId: m.tenantId, membershipId: m.id, error: String(error) }))
      }
    }
  }
  const count = (r: RenewalOutcome['result']) => outcomes.filter((o) => o.result === r).length
  return { now, renewed: count('renewed'), failed: count('failed'), ended: count('ended'), skipped: count('skipped'), outcomes }
}

/** The cron (server.ts `scheduled`): renewals, then the domain events the queues never got. */
export async function runScheduledBilling(env: Env, now = Date.now()) {
  const renewals = await runMembershipRenewals(env, now)
  let events = 0
  for (const { db } of allShards(env)) events += await sweepUnsentAppEvents(db, eventQueues(env), now)
  console.log(JSON.stringify({ event: 'scheduled_billing', renewed: renewals.renewed, failed: renewals.failed, ended: renewals.ended, skipped: renewals.skipped, eventsSent: events }))
  return { renewals, eventsSent: events }
}

export type SubscriptionOutcome = { outcome: 'applied' | 'duplicate' | 'unknown' | 'ignored'; membershipId?: string; status?: MembershipStatus; transactionId?: string; emailed?: boolean }

/**
 * A verified Stripe subscription event (notify.server.ts). Recorded once per event id in
 * payment_events: a replay's batch fails as a whole and changes nothing.
 */
export async function applySubscriptionNotification(
  context: AppLoadContext,
  tenantId: string,
  provider: PaymentProvider,
  n: SubscriptionNotification,
  now = Date.now(),
): Promise<SubscriptionOutcome> {
  if (n.kind === 'ignored') return { outcome: 'ignored' }
  const db = context.db
  const m = await getMembershipBySubscription(db, tenantId, provider, n.subscriptionId)
  if (!m) return { outcome: 'unknown' }
  const event = (transactionId: string) => paymentEventStatement(db, tenantId, { transactionId, provider, eventKey: n.eventKey, providerStatus: n.providerStatus, receivedAt: now })

  try {
    if (n.kind === 'renewed') {
      const [school, snap] = await Promise.all([getSchool(context.control, tenantId), renewalSnapshot(db, m)])
      if (!school || !snap) return { outcome: 'unknown' }
      const id = newId()
      const newEnd = n.periodEnd ?? addPeriod(Math.max(m.currentPeriodEnd ?? now, now), Math.max(m.periodMonths, 1))
      const row = renewalRow(m, school, snap, n.amountPaid, n.currency)
      const results = await db.batch([
        // Unique (provider, provider_ref = the invoice): one renewal per Stripe invoice.
        completedRenewalStatement(db, tenantId, row, { id, provider, integrationId: m.integrationId, providerRef: n.invoiceId }, now),
        event(id),
        ...renewalGrantStatements(db, m, { id, claimed: false }, newEnd, renewalPaidEvent(m, id, snap, n.amountPaid, n.currency, now), now),
      ])
      if ((results[results.length - 1] as unknown[]).length) context.cloudflare.ctx.waitUntil(dispatchAppEvents(db, eventQueues(context.cloudflare.env), tenantId))
      return { outcome: 'applied', membershipId: m.id, status: (await getMembership(db, tenantId, m.id))?.status, transactionId: id }
    }
    if (n.kind === 'payment_failed') {
      // Stripe retries on its own schedule and ends the subscription when it gives up (…deleted).
      const [, moved] = await db.batch([event(m.transactionId), subscriptionFailedStatement(db, tenantId, m.id, now)])
      let emailed = false
      if (moved[0]?.failedCharges === 1) {
        const [school, snap] = await Promise.all([getSchool(context.control, tenantId), renewalSnapshot(db, m)])
        if (school && snap) {
          // Once per failure streak (this batch moved the count to 1); one outbox row, the send is queued.
          emailed = await sendPaymentProblemEmail(db, context.cloudflare.env, school, m, snap, 'provider', n.decline ?? null)
        }
      }
      return { outcome: 'applied', membershipId: m.id, status: (await getMembership(db, tenantId, m.id))?.status, emailed }
    }
    // deleted: no more charges. A cancelled membership keeps its paid period (the cron ends it after).
    await db.batch([event(m.transactionId), subscriptionDeletedStatement(db, tenantId, m.id, now)])
    return { outcome: 'applied', membershipId: m.id, status: (await getMembership(db, tenantId, m.id))?.status }
  } catch (error) {
    if (isUniqueViolation(error)) return { outcome: 'duplicate', membershipId: m.id, status: (await getMembership(db, tenantId, m.id))?.status }
    throw error
  }
}
