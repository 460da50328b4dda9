// Memberships, the student's side (issue 8 item 6; seed 000 widgets 12/14, §4 cancel flow, §5 card
// and survey rules): the student's subscriptions, cancelling one (no further charges; access runs
// to the end of the paid period), the exit survey (one per membership) and the card on file.
// Rows are created and renewed by the billing lifecycle (app/membership/membership-billing.server.ts).
// Every function takes the tenant and the owner explicitly: another student's or another school's
// membership is simply not found.
//
// Card tokens of the built-in test provider — the contract with the billing side's
// `chargeStoredCard` (app/payments/test-provider.server.ts):
//   tok_test_{last4}_{ok|decline}_{random}
// `decline` is written for the test card 4000 0000 0000 0002 (every charge with it is refused);
// any other valid card gets `ok` (charges succeed). Parse it with `testCardTokenDeclines`.
// The number and the CVV are never stored: only brand, last 4, expiry month/year and the token.
import { and, desc, eq, inArray } from 'drizzle-orm'
import type { ShardDb } from '#app/db/client.server.ts'
import { CANCEL_REASONS, cancellationSurveys, memberships, products, RETURN_INTENTS, type MembershipStatus, type PaymentProvider } from '#app/db/schema.server.ts'
import { declineFromTestCard } from '#app/domain/payment-failure.ts'
import { newId } from '#app/utils/ids.server.ts'
import { ofTenant } from './tenant-scope.server.ts'

export type Membership = typeof memberships.$inferSelect
export type CancelReason = (typeof CANCEL_REASONS)[number]
export type ReturnIntent = (typeof RETURN_INTENTS)[number]

/** Statuses that still charge (or are about to): these can be cancelled. */
export const CANCELLABLE: MembershipStatus[] = ['started', 'active', 'at_risk']
/** Reasons that need the free-text explanation (seed 000 §5). */
export const EXPLAINED_REASONS: CancelReason[] = ['other', 'technical']
/** Seed 000 §9 "Explanation minimum 4 characters"; the upper bound keeps rows small. */
export const OTHER_REASON_MIN = 4
export const OTHER_REASON_MAX = 2000

/** The test card whose every charge is declined (billing reads it from the token). */
export const TEST_DECLINE_CARD = '4000000000000002'

/** A stored test card's token; every declining test card (payment-failure.ts TEST_CARDS) is stored as one that declines, its last four saying why. */
export function testCardToken(number: string) {
  const digits = number.replace(/\D/g, '')
  const declines = digits === TEST_DECLINE_CARD || declineFromTestCard(digits) !== null
  return `tok_test_${digits.slice(-4)}_${declines ? 'decline' : 'ok'}_${newId(10)}`
}

/** true: declines; false: approves; null: not a test card token. */
export function testCardTokenDeclines(token: string | null | undefined): boolean | null {
  const m = token ? /^tok_test_\d{4}_(ok|decline)_[a-z0-9]+$/.exec(token) : null
  return m ? m[1] === 'decline' : null
}

export type MembershipWithProduct = Membership & { productTitle: string; productSlug: string; surveyDone: boolean }

const withProduct = {
  membership: memberships,
  productTitle: products.title,
  productSlug: products.slug,
  surveyId: cancellationSurveys.id,
}

function joined(db: ShardDb, tenantId: string) {
  return db
    .select(withProduct)
    .from(memberships)
    .innerJoin(products, ofTenant(products, tenantId, eq(products.id, memberships.productId)))
    .leftJoin(cancellationSurveys, ofTenant(cancellationSurveys, tenantId, eq(cancellationSurveys.membershipId, memberships.id)))
}

const flatten = (r: { membership: Membership; productTitle: string; productSlug: string; surveyId: string | null }): MembershipWithProduct => ({
  ...r.membership,
  productTitle: r.productTitle,
  productSlug: r.productSlug,
  surveyDone: r.surveyId !== null,
})

/** The student's memberships, newest first, with the product's title and slug. */
export async function listMembershipsForUser(db: ShardDb, tenantId: string, userId: string) {
  const rows = await joined(db, tenantId)
    .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId)))
    .orderBy(desc(memberships.createdAt), desc(memberships.id))
    .limit(200)
  return rows.map(flatten)
}

/** One of the student's memberships; undefined for anyone else's (or another school's). */
export async function getMembershipForUser(db: ShardDb, tenantId: string, userId: string, id: string) {
  const [row] = await joined(db, tenantId)
    .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId), eq(memberships.id, id)))
    .limit(1)
  return row ? flatten(row) : undefined
}

export type CancelResult =
  /** canceled now; `previous` is the status it had (started: nothing was paid, no survey). */
  | { result: 'canceled'; previous: MembershipStatus; membership: MembershipWithProduct }
  /** Already canceled before (idempotent). */
  | { result: 'already'; previous: MembershipStatus; membership: MembershipWithProduct }
  | { result: 'ended'; previous: MembershipStatus; membership: MembershipWithProduct }
  /** The provider refused to stop the subscription: nothing changed here. */
  | { result: 'provider_refused'; previous: MembershipStatus; membership: MembershipWithProduct }
  | { result: 'not_found' }

/**
 * Cancel: no further charges (nextChargeAt null), canceledAt set; access stays until
 * currentPeriodEnd (the access row is not touched). Idempotent. For a provider-renewed
 * subscription (Stripe) `stopAtProvider` runs first; when it refuses nothing changes here.
 */
export async function cancelMembership(
  db: ShardDb,
  tenantId: string,
  userId: string,
  id: string,
  options: { stopAtProvider?: (m: Membership) => Promise<boolean> } = {},
  now = Date.now(),
): Promise<CancelResult> {
  const before = await getMembershipForUser(db, tenantId, userId, id)
  if (!before) return { result: 'not_found' }
  if (before.status === 'canceled') return { result: 'already', previous: before.status, membership: before }
  if (before.status === 'ended') return { result: 'ended', previous: before.status, membership: before }
  const atProvider = Boolean(before.providerSubscriptionId && options.stopAtProvider)
  if (atProvider && !(await options.stopAtProvider!(before))) {
    return { result: 'provider_refused', previous: before.status, membership: before }
  }
  // Guarded by the status: of two concurrent cancels one writes, the other reads the result.
  const updated = await db
    .update(memberships)
    .set({ status: 'canceled', canceledAt: now, nextChargeAt: null, updatedAt: now })
    .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId), eq(memberships.id, id), inArray(memberships.status, CANCELLABLE)))
    .returning({ id: memberships.id })
  const after = (await getMembershipForUser(db, tenantId, userId, id))!
  if (updated.length) return { result: 'canceled', previous: before.status, membership: after }
  if (after.status === 'canceled') return { result: 'already', previous: before.status, membership: after }
  // The provider's "subscription deleted" event, sent while it stopped the subscription for us,
  // may have ended the row first: the student's cancel still succeeded.
  if (atProvider) return { result: 'canceled', previous: before.status, membership: after }
  return { result: 'ended', previous: before.status, membership: after }
}

export type SurveyInput = { reason: CancelReason; otherReason: string | null; returnIntent: ReturnIntent }

/**
 * The exit survey of a cancelled membership, once (unique per membership: the second one — also a
 * concurrent one — is refused without writing).
 */
export async function saveCancellationSurvey(db: ShardDb, tenantId: string, userId: string, membershipId: string, input: SurveyInput, now = Date.now()) {
  const membership = await getMembershipForUser(db, tenantId, userId, membershipId)
  if (!membership) return 'not_found' as const
  if (membership.status !== 'canceled' && membership.status !== 'ended') return 'not_canceled' as const
  if (membership.surveyDone) return 'already' as const
  const rows = await db
    .insert(cancellationSurveys)
    .values({
      id: newId(),
      tenantId,
      membershipId,
      userId,
      reason: input.reason,
      otherReason: EXPLAINED_REASONS.includes(input.reason) ? input.otherReason : input.otherReason || null,
      returnIntent: input.returnIntent,
      createdAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: cancellationSurveys.id })
  return rows.length ? ('saved' as const) : ('already' as const)
}

export type CardOnFile = { brand: string; last4: string; expMonth: number; expYear: number; token: string }
/** A card kept at a provider (issue 25): it may not tell the brand, digits or expiry (a PayPal account). */
export type ProviderCard = { brand: string | null; last4: string | null; expMonth: number | null; expYear: number | null; token: string }

/** Memberships whose card can be replaced: still charging, renewed by us (not a provider subscription), not lifetime. */
export const cardUpdatable = (m: Pick<Membership, 'status' | 'periodMonths' | 'providerSubscriptionId'>) =>
  CANCELLABLE.includes(m.status) && m.periodMonths > 0 && !m.providerSubscriptionId

/** The new card on file (never the number or the CVV). */
export async function updateMembershipCard(db: ShardDb, tenantId: string, userId: string, id: string, card: CardOnFile, now = Date.now()) {
  const rows = await db
    .update(memberships)
    .set({ cardBrand: card.brand, cardLast4: card.last4, cardExpMonth: card.expMonth, cardExpYear: card.expYear, cardToken: card.token, updatedAt: now })
    .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId), eq(memberships.id, id), inArray(memberships.status, CANCELLABLE)))
    .returning({ id: memberships.id })
  return rows.length > 0
}

/** A card change started at the provider (issue 25): remembered until the student comes back. */
export async function setMembershipCardUpdateRef(db: ShardDb, tenantId: string, userId: string, id: string, ref: string | null, now = Date.now()) {
  const rows = await db
    .update(memberships)
    .set({ cardUpdateRef: ref, updatedAt: now })
    .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId), eq(memberships.id, id), inArray(memberships.status, CANCELLABLE)))
    .returning({ id: memberships.id })
  return rows.length > 0
}

/** The new card kept at the provider (issue 25), replacing the one renewals charge; the pending change is done. */
export async function saveProviderCard(db: ShardDb, tenantId: string, userId: string, id: string, card: ProviderCard, now = Date.now()) {
  const rows = await db
    .update(memberships)
    .set({ cardBrand: card.brand, cardLast4: card.last4, cardExpMonth: card.expMonth, cardExpYear: card.expYear, cardToken: card.token, cardUpdateRef: null, updatedAt: now })
    .where(ofTenant(memberships, tenantId, eq(memberships.userId, userId), eq(memberships.id, id), inArray(memberships.status, CANCELLABLE)))
    .returning({ id: memberships.id })
  return rows.length > 0
}

/**
 * The card a provider kept at a membership's first payment (issue 25): stored on the membership
 * that purchase started, for the scheduled renewals. Repeats write the same values.
 */
export async function setMembershipCardOfTransaction(db: ShardDb, tenantId: string, transactionId: string, card: ProviderCard, now = Date.now()) {
  const rows = await db
    .update(memberships)
    .set({ cardBrand: card.brand, cardLast4: card.last4, cardExpMonth: card.expMonth, cardExpYear: card.expYear, cardToken: card.token, updatedAt: now })
    .where(ofTenant(memberships, tenantId, eq(memberships.transactionId, transactionId)))
    .returning({ id: memberships.id })
  return rows.length > 0
}

/**
 * Which school a subscription of the platform's own Stripe account belongs to (its renewals
 * arrive at the platform host naming only the subscription). Like findTenantOfPlatformSale: the
 * provider's signed id is the key, the row names the tenant.
 */
export async function findTenantOfPlatformSubscription(db: ShardDb, provider: PaymentProvider, integrationId: string, subscriptionId: string) {
  const [row] = await db
    .select({ tenantId: memberships.tenantId })
    .from(memberships)
    .where(and(eq(memberships.provider, provider), eq(memberships.integrationId, integrationId), eq(memberships.providerSubscriptionId, subscriptionId)))
    .limit(1)
  return row?.tenantId ?? null
}
