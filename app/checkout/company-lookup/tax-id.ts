// Tax numbers typed in the checkout (issue 25): the Polish NIP with its checksum, and EU VAT
// numbers (two-letter prefix + the national number) for VIES. Pure: the checkout's button checks
// the checksum in the browser before any request, and the route checks it again.

/** NIP weights (the tenth digit is the check digit: Σ dᵢ·wᵢ mod 11; a result of 10 is never issued). */
const NIP_WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7] as const

/** The check digit of the first nine digits, or null when no NIP can end them (mod 11 = 10). */
export function nipCheckDigit(nineDigits: string): number | null {
  if (!/^\d{9}$/.test(nineDigits)) return null
  const sum = NIP_WEIGHTS.reduce((acc, w, i) => acc + w * Number(nineDigits[i]), 0)
  const check = sum % 11
  return check === 10 ? null : check
}

export function isValidNip(nip: string): boolean {
  if (!/^\d{10}$/.test(nip)) return false
  return nipCheckDigit(nip.slice(0, 9)) === Number(nip[9])
}

/**
 * VIES member-state codes (Greece is EL there, Northern Ireland XI). Source: the checkVat WSDL's
 * countryCode documentation and the VIES FAQ list of member states.
 */
export const VIES_COUNTRIES = [
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'EL',
  'ES',
  'FI',
  'FR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'XI',
] as const
export type ViesCountry = (typeof VIES_COUNTRIES)[number]

/** ISO 3166 country of a VIES prefix (for the address's country field). */
export const isoCountryOf = (code: string) => (code === 'EL' ? 'GR' : code === 'XI' ? 'GB' : code)

export type TaxIdQuery = { kind: 'nip'; nip: string } | { kind: 'vat'; country: ViesCountry; number: string } | { kind: 'invalid'; reason: 'checksum' | 'format' }

/** Separators people type (spaces, dashes, dots) go; letters are upper-cased. */
const clean = (raw: string) => raw.replace(/[\s.\-/]/g, '').toUpperCase()

/**
 * Read what the buyer typed into the NIP / VAT number field: ten digits (or PL + ten digits) is a
 * NIP and must pass the checksum; another EU prefix is a VAT number for VIES (2–12 letters/digits,
 * the national shapes are VIES's to judge); anything else is not a number we can look up.
 */
export function parseTaxId(raw: string): TaxIdQuery {
  const value = clean(raw)
  const nip = /^(?:PL)?(\d{10})$/.exec(value)
  if (nip) return isValidNip(nip[1]!) ? { kind: 'nip', nip: nip[1]! } : { kind: 'invalid', reason: 'checksum' }
  if (/^(?:PL)?\d+$/.test(value)) return { kind: 'invalid', reason: 'checksum' }
  const vat = /^([A-Z]{2})([0-9A-Z+*]{2,12})$/.exec(value)
  if (vat && (VIES_COUNTRIES as readonly string[]).includes(vat[1]!) && vat[1] !== 'PL') {
    return { kind: 'vat', country: vat[1] as ViesCountry, number: vat[2]! }
  }
  return { kind: 'invalid', reason: 'format' }
}

/** The cache key of a tax number: the VIES prefix and the national number (PL for a NIP). */
export const taxIdKey = (q: Exclude<TaxIdQuery, { kind: 'invalid' }>) => (q.kind === 'nip' ? `PL${q.nip}` : `${q.country}${q.number}`)
