// Braintree's processor response codes (developer.paypal.com/braintree/docs/reference/general/
// processor-responses/authorization-responses) reduced to the seed's decline reasons.
import type { DeclineReason } from '#app/domain/payment-failure.ts'

const CODES: Record<string, DeclineReason> = {
  '2000': 'sale_error', // Do Not Honor
  '2001': 'insufficient_funds',
  '2002': 'limit_exceeded',
  '2003': 'limit_exceeded', // Cardholder's Activity Limit Exceeded
  '2004': 'card_expired',
  '2005': 'card_number', // Invalid Credit Card Number
  '2006': 'card_invalid', // Invalid Expiration Date
  '2007': 'card_number', // No Account
  '2008': 'card_number', // Card Account Length Error
  '2010': 'card_invalid', // Card Issuer Declined CVV
  '2012': 'card_lost_stolen', // Processor Declined - Possible Lost Card
  '2013': 'card_lost_stolen', // Processor Declined - Possible Stolen Card
  '2014': 'sale_error', // Processor Declined - Fraud Suspected
  '2015': 'sale_error', // Transaction Not Allowed
  '2038': 'sale_error', // Processor Declined
  '2046': 'sale_error', // Declined
  '2099': 'three_ds_failed', // Cardholder Authentication Required
  '3000': 'processing', // Processor Network Unavailable - Try Again
}

/** null: not a decline (approved, or no code). */
export function declineFromBraintree(status: string, legacyCode: string | null | undefined): DeclineReason | null {
  if (status === 'GATEWAY_REJECTED') return 'sale_error'
  if (status !== 'PROCESSOR_DECLINED' && status !== 'FAILED' && status !== 'SETTLEMENT_DECLINED') return null
  return (legacyCode && CODES[legacyCode]) || 'payment_failed'
}
