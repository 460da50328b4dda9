// Signup choices shared by the form (browser) and the action (issue 23 §4, §7).
export const CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const
export type Currency = (typeof CURRENCIES)[number]
export const DEFAULT_VAT_RATE = 23

/** The tax choice a currency suggests: PLN is Poland's (VAT 23 %); other currencies start without VAT. */
export function defaultVatMode(currency: string): 'vat' | 'none' {
  return currency === 'PLN' ? 'vat' : 'none'
}
