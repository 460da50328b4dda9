// What the panel's membership card shows of a subscription (issue 8 item 6), with dates formatted
// by the loader (like the rest of /panel) so server and browser render the same text.
import type { MembershipStatus } from '#app/db/schema.server.ts'
import type { PanelSubscription } from '#app/models/student-panel.server.ts'
import type { DeclineReason } from './payment-failure.ts'

export type MembershipBillingView = {
  id: string
  status: MembershipStatus
  renewsOn: string | null
  accessUntil: string | null
  endedOn: string | null
  lifetime: boolean
  card: { brand: string; last4: string; month: string; year: string } | null
  /** A payment account without card digits (PayPal), by name. */
  paysWith: string | null
  canUpdateCard: boolean
  /** The card is kept by the school's provider: changed through it (issue 25). */
  cardAtProvider: boolean
  /** …in the provider's secure fields on the school's own page (not on the provider's site). */
  cardFieldsHere: boolean
  provider: string | null
  canCancel: boolean
  surveyDone: boolean
  /** At risk after a declined renewal: the issuer's reason in the seed's words (seed 001 §8), when the provider gave one. */
  declineReason: DeclineReason | null
}

const BRAND_NAMES: Record<string, string> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  'american-express': 'American Express',
  discover: 'Discover',
  'diners-club': 'Diners Club',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
  mir: 'Mir',
  elo: 'Elo',
  hiper: 'Hiper',
  hipercard: 'Hipercard',
}
export const brandName = (type: string) => BRAND_NAMES[type] ?? type

/** Providers that keep the card and change it on their own fields or page (app/membership/card-update.server.ts). */
const CARD_AT_PROVIDER = ['stripe', 'payu', 'tpay', 'paypal', 'braintree', 'paylane']
/** Those whose hosted fields take the new card on our page (hostedFieldsFor in app/payments/providers/hosted-fields.server.ts). */
const CARD_FIELDS_HERE = ['payu', 'braintree', 'paylane']

const renewing = (s: PanelSubscription) => s.status === 'active' || s.status === 'at_risk' || s.status === 'started'

export function membershipBillingView(s: PanelSubscription | null, date: (ms: number) => string): MembershipBillingView | null {
  if (!s) return null
  const lifetime = s.periodMonths < 0
  return {
    id: s.id,
    status: s.status,
    renewsOn: renewing(s) && !lifetime && s.currentPeriodEnd !== null ? date(s.currentPeriodEnd) : null,
    accessUntil: s.status === 'canceled' && s.currentPeriodEnd !== null ? date(s.currentPeriodEnd) : null,
    endedOn: s.status === 'ended' ? date(s.endedAt ?? s.currentPeriodEnd ?? s.canceledAt ?? 0) : null,
    lifetime,
    card: s.card ? { brand: brandName(s.card.brand), last4: s.card.last4, month: String(s.card.expMonth).padStart(2, '0'), year: String(s.card.expYear) } : null,
    paysWith: s.paysWith,
    canUpdateCard: renewing(s) && !lifetime && !s.providerManaged && (s.provider === null || s.provider === 'test'),
    cardAtProvider: renewing(s) && !lifetime && CARD_AT_PROVIDER.includes(s.provider ?? ''),
    cardFieldsHere: CARD_FIELDS_HERE.includes(s.provider ?? ''),
    provider: s.provider,
    canCancel: renewing(s) && !lifetime,
    surveyDone: s.surveyDone,
    declineReason: s.status === 'at_risk' ? s.lastDecline : null,
  }
}
