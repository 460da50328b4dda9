// Why a payment failed, in the seeds' words (issue 18 §3; seed 001 §8 error catalogue, seed 000 §7/§8
// failure state): every provider's decline code is reduced to one of DECLINE_REASONS, kept on the
// transaction as `status_reason = decline:{reason}` and shown — on the buyer's failure page, in the
// renewal failure email, on the owner's transaction page — as `payment.failure.{reason}` (what
// happened) and `payment.failure.{reason}.hint` (what to do), English and Polish
// (app/i18n/messages/payment-failures.ts). Pure: no server imports (node tier).

export const DECLINE_REASONS = [
  'sale_error',
  'insufficient_funds',
  'limit_exceeded',
  'card_expired',
  'card_lost_stolen',
  'card_number',
  'card_invalid',
  'three_ds_failed',
  'processing',
  'coupon_expired',
  'payment_failed',
] as const
export type DeclineReason = (typeof DECLINE_REASONS)[number]

const PREFIX = 'decline:'

export const isDeclineReason = (value: unknown): value is DeclineReason => typeof value === 'string' && (DECLINE_REASONS as readonly string[]).includes(value)

/** What goes into `transactions.status_reason` for a declined payment. */
export function declineStatusReason(reason: DeclineReason): string {
  return `${PREFIX}${reason}`
}

/** The decline a `status_reason` records; anything else (null, 'expired', a mismatch, a refund) is null. */
export function declineFromStatusReason(statusReason: string | null | undefined): DeclineReason | null {
  if (!statusReason?.startsWith(PREFIX)) return null
  const reason = statusReason.slice(PREFIX.length)
  return isDeclineReason(reason) ? reason : null
}

/** The catalogue keys of a reason: the short text and what the buyer can do. */
export const declineMessageKeys = (reason: DeclineReason) => ({ title: `payment.failure.${reason}`, hint: `payment.failure.${reason}.hint` }) as const

// ---- Stripe ---------------------------------------------------------------------------------------
// Stripe's documented card decline codes (docs.stripe.com/declines/codes: the error's `decline_code`)
// and the API error codes (`code`) a failed card payment can carry. The decline code is the more
// specific one, so it is read first.
const STRIPE_DECLINE_CODES: Record<string, DeclineReason> = {
  generic_decline: 'sale_error',
  do_not_honor: 'sale_error',
  call_issuer: 'sale_error',
  card_not_supported: 'sale_error',
  currency_not_supported: 'sale_error',
  do_not_try_again: 'sale_error',
  fraudulent: 'sale_error', // Stripe asks not to tell the buyer: shown as the generic decline
  merchant_blacklist: 'sale_error',
  restricted_card: 'sale_error',
  revocation_of_all_authorizations: 'sale_error',
  revocation_of_authorization: 'sale_error',
  security_violation: 'sale_error',
  service_not_allowed: 'sale_error',
  stop_payment_order: 'sale_error',
  transaction_not_allowed: 'sale_error',
  no_action_taken: 'sale_error',
  not_permitted: 'sale_error',
  new_account_information_available: 'sale_error',
  invalid_account: 'sale_error',
  invalid_amount: 'sale_error',
  approve_with_id: 'processing',
  insufficient_funds: 'insufficient_funds',
  card_velocity_exceeded: 'limit_exceeded',
  withdrawal_count_limit_exceeded: 'limit_exceeded',
  expired_card: 'card_expired',
  lost_card: 'card_lost_stolen',
  stolen_card: 'card_lost_stolen',
  pickup_card: 'card_lost_stolen',
  incorrect_number: 'card_number',
  invalid_number: 'card_number',
  incorrect_cvc: 'card_invalid',
  invalid_cvc: 'card_invalid',
  invalid_expiry_month: 'card_invalid',
  invalid_expiry_year: 'card_invalid',
  invalid_expiry_date: 'card_invalid',
  incorrect_zip: 'card_invalid',
  incorrect_pin: 'card_invalid',
  invalid_pin: 'card_invalid',
  pin_try_exceeded: 'card_invalid',
  offline_pin_required: 'card_invalid',
  online_or_offline_pin_required: 'card_invalid',
  authentication_required: 'three_ds_failed',
  processing_error: 'processing',
  try_again_later: 'processing',
  reenter_transaction: 'processing',
  issuer_not_available: 'processing',
  duplicate_transaction: 'processing',
}

const STRIPE_ERROR_CODES: Record<string, DeclineReason> = {
  ...STRIPE_DECLINE_CODES,
  card_declined: 'sale_error',
  payment_intent_authentication_failure: 'three_ds_failed',
  setup_intent_authentication_failure: 'three_ds_failed',
  coupon_expired: 'coupon_expired',
}

/** A Stripe error (`last_payment_error`, a charge's failure): its reason; 'payment_failed' when Stripe says nothing we know. */
export function declineFromStripe(error: { code?: string | null; decline_code?: string | null } | null | undefined): DeclineReason {
  const decline = error?.decline_code ? STRIPE_DECLINE_CODES[error.decline_code] : undefined
  if (decline) return decline
  const code = error?.code ? STRIPE_ERROR_CODES[error.code] : undefined
  return code ?? 'payment_failed'
}

// ---- PayU -----------------------------------------------------------------------------------------
// PayU reports a card payment's answer on the order's transaction (GET /api/v2_1/orders/{orderId}/
// transactions: `card.cardData.cardResponseCode` with `cardResponseCodeDesc`, e.g. "000" / "000 - OK").
// PayU's "Card Status Codes": "000" approved; "S" + the issuer's ISO 8583 response code for a decline
// ("S51 - Insufficient funds", "S54 - Expired card", …); "SP1" over the daily limit; "114" a 3-D Secure
// authentication error. A bare ISO code ("51", "051") is read the same way.
const PAYU_CODES: Record<string, DeclineReason | null> = {
  '000': null,
  SP1: 'limit_exceeded', // over daily limit (try again later)
  '114': 'three_ds_failed', // 3ds authentication error (global)
}
const ISO_8583: Record<string, DeclineReason | null> = {
  '00': null, // approved
  '08': null, // honour with identification (approved)
  '10': null, // partial approval — PayU completes only the full amount, so not a decline
  '11': null, // approved (VIP)
  '01': 'sale_error', // refer to card issuer
  '02': 'sale_error', // refer to card issuer, special condition
  '03': 'sale_error', // invalid merchant
  '05': 'sale_error', // do not honour
  '12': 'sale_error', // invalid transaction
  '13': 'sale_error', // invalid amount
  '57': 'sale_error', // transaction not permitted to cardholder
  '58': 'sale_error', // transaction not permitted to terminal
  '59': 'sale_error', // suspected fraud
  '62': 'sale_error', // restricted card
  '63': 'sale_error', // security violation
  '93': 'sale_error', // violation of law
  '51': 'insufficient_funds',
  '61': 'limit_exceeded', // exceeds withdrawal amount limit
  '65': 'limit_exceeded', // exceeds withdrawal frequency limit
  '33': 'card_expired', // expired card, pick up
  '54': 'card_expired',
  '04': 'card_lost_stolen', // pick up card
  '07': 'card_lost_stolen', // pick up card, special condition
  '41': 'card_lost_stolen', // lost card
  '43': 'card_lost_stolen', // stolen card
  '14': 'card_number', // invalid card number
  '15': 'card_number', // no such issuer
  '56': 'card_number', // no card record
  '55': 'card_invalid', // incorrect PIN
  '75': 'card_invalid', // PIN tries exceeded
  '82': 'card_invalid', // CVV/ iCVV failure
  N7: 'card_invalid', // CVV2 failure (Visa)
  '06': 'processing', // error
  '19': 'processing', // re-enter transaction
  '30': 'processing', // format error
  '68': 'processing', // response received too late
  '90': 'processing', // cut-off in progress
  '91': 'processing', // issuer or switch inoperative
  '92': 'processing', // routing error
  '94': 'processing', // duplicate transmission
  '96': 'processing', // system malfunction
}

/**
 * A PayU card transaction's `cardResponseCode`: null when it says approved; 'payment_failed' when
 * there is none (the buyer never reached the card step, or PayU did not say) or it is one we do not know.
 */
export function declineFromPayuCardResponse(code: string | null | undefined): DeclineReason | null {
  const raw = (code ?? '').trim().toUpperCase()
  if (!raw) return 'payment_failed'
  if (raw in PAYU_CODES) return PAYU_CODES[raw]!
  const iso = /^S[0-9A-Z]{2}$/.test(raw) ? raw.slice(1) : /^0\d{2}$/.test(raw) ? raw.slice(1) : raw
  const reason = ISO_8583[iso]
  return reason === undefined ? 'payment_failed' : reason
}

// ---- the built-in test provider ---------------------------------------------------------------------
/**
 * Cards of the built-in test provider's hosted page and stored cards: Stripe's well-known test
 * numbers, each answering as Stripe's test mode does. Any other valid number pays.
 */
export const TEST_CARDS: ReadonlyArray<{ number: string; decline: DeclineReason | null }> = [
  { number: '4242424242424242', decline: null },
  { number: '4000000000000002', decline: 'sale_error' },
  { number: '4000000000009995', decline: 'insufficient_funds' },
  { number: '4000000000006975', decline: 'limit_exceeded' },
  { number: '4000000000000069', decline: 'card_expired' },
  { number: '4000000000009987', decline: 'card_lost_stolen' },
  { number: '4000000000009979', decline: 'card_lost_stolen' },
  { number: '4000000000000127', decline: 'card_invalid' },
  { number: '4000008400001629', decline: 'three_ds_failed' },
  { number: '4000000000000119', decline: 'processing' },
]

/** How the test provider answers a card: its decline, or null when the card pays. */
export function declineFromTestCard(cardNumber: string): DeclineReason | null {
  const digits = cardNumber.replace(/[\s-]/g, '')
  return TEST_CARDS.find((c) => c.number === digits)?.decline ?? null
}

/**
 * A stored test card knows only its last four digits (app/models/membership.server.ts tokens): the
 * decline of the test card that ends so, else the generic decline. Only for a card its token marks as declining.
 */
export function declineFromTestCardLast4(last4: string): DeclineReason {
  return TEST_CARDS.find((c) => c.decline && c.number.endsWith(last4))?.decline ?? 'sale_error'
}
