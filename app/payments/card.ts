// Card data of the card form (seed 000 widget 7/14, §3 "Card data", §4 card form states, §5 card
// rules): validation by brand with the maintained card-validator library, the month/year options,
// and the "cypher" — the four fields and the page origin encrypted together in the browser with
// the school's card-vault public key, so our forms never carry the raw number.
//
// Cypher format (v1, hybrid encryption; RSA-OAEP alone holds only 190 bytes and a custom domain
// may be long): `v1.{wrapped}.{iv}.{ciphertext}`, each part base64url —
//   wrapped    = RSA-OAEP-SHA256(card-vault public key, raw 256-bit AES key)
//   ciphertext = AES-256-GCM(key, iv (12 bytes), JSON {cardNumber, cardMonth, cardYear, cardCvv, origin})
// Isomorphic: the browser encrypts, the server (card-vault.server.ts) decrypts and validates again.
import cardValidator from 'card-validator'

export type CardFields = { cardNumber: string; cardMonth: string; cardYear: string; cardCvv: string }
export type CardPayload = CardFields & { origin: string }
/** Seed 000 §4: each field valid, potentially invalid (may still become valid) or invalid. */
export type FieldState = 'valid' | 'potential' | 'invalid'
export type CardBrand = { type: string; niceType: string; gaps: number[]; lengths: number[]; codeSize: number; codeName: string }

/** Seed 000 §5: default size 16 and code size 3 until a brand is recognised. */
export const DEFAULT_BRAND: CardBrand = { type: 'unknown', niceType: 'Card', gaps: [4, 8, 12], lengths: [16], codeSize: 3, codeName: 'CVV' }
/** Brands shown with a logo (seed 000 §5); the others are recognised and named. */
export const LOGO_BRANDS = ['visa', 'mastercard', 'discover', 'american-express'] as const
/** Plenty for a 2048-bit key's wrap plus the JSON; bounds what the server tries to decrypt. */
export const CYPHER_MAX_LENGTH = 4096
const digits = (value: string) => value.replace(/\D/g, '')

export function detectBrand(number: string): CardBrand {
  const card = cardValidator.number(digits(number)).card
  if (!card) return DEFAULT_BRAND
  return { type: card.type, niceType: card.niceType, gaps: card.gaps, lengths: card.lengths, codeSize: card.code.size, codeName: card.code.name }
}

/** Digits grouped by the brand's gaps ("4111 1111 1111 1111", Amex "3782 822463 10005"), cut at its longest length. */
export function formatCardNumber(value: string) {
  const brand = detectBrand(value)
  const max = Math.max(...brand.lengths)
  const d = digits(value).slice(0, max)
  let out = ''
  for (let i = 0; i < d.length; i++) {
    if (brand.gaps.includes(i)) out += ' '
    out += d[i]
  }
  return out
}

/** Month options 01–12 (seed 000 §5). */
export const monthOptions = () => Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'))
/** Year options: the current year plus the next 11, 12 entries (seed 000 §5). */
export const yearOptions = (now = Date.now()) => Array.from({ length: 12 }, (_, i) => String(new Date(now).getUTCFullYear() + i))

export function numberState(value: string): FieldState {
  if (/[^\d\s]/.test(value)) return 'invalid'
  const v = cardValidator.number(digits(value))
  return v.isValid ? 'valid' : v.isPotentiallyValid ? 'potential' : 'invalid'
}

/** A number is flagged invalid only when it can no longer become valid (seed 000 §4). */
export function cvvState(value: string, number: string): FieldState {
  if (!/^\d*$/.test(value)) return 'invalid'
  const v = cardValidator.cvv(value, detectBrand(number).codeSize)
  return v.isValid ? 'valid' : v.isPotentiallyValid ? 'potential' : 'invalid'
}

/** Month 1–12; in the current year only at or after the current month (seed 000 §5, seed 001 §5). */
export function monthState(month: string, year: string, now = Date.now()): FieldState {
  if (month === '') return 'potential'
  if (!cardValidator.expirationMonth(month).isValid) return 'invalid'
  const d = new Date(now)
  if (year === String(d.getUTCFullYear()) && Number(month) < d.getUTCMonth() + 1) return 'invalid'
  return 'valid'
}

export function yearState(year: string, now = Date.now()): FieldState {
  if (year === '') return 'potential'
  return yearOptions(now).includes(year) ? 'valid' : 'invalid'
}

export type CardStates = { cardNumber: FieldState; cardMonth: FieldState; cardYear: FieldState; cardCvv: FieldState }

export function cardStates(card: CardFields, now = Date.now()): CardStates {
  return {
    cardNumber: numberState(card.cardNumber),
    cardMonth: monthState(card.cardMonth, card.cardYear, now),
    cardYear: yearState(card.cardYear, now),
    cardCvv: cvvState(card.cardCvv, card.cardNumber),
  }
}

export const cardComplete = (card: CardFields) => Boolean(digits(card.cardNumber) && card.cardMonth && card.cardYear && card.cardCvv)
export const cardValid = (states: CardStates) => Object.values(states).every((s) => s === 'valid')

// ---- cypher ------------------------------------------------------------------------------------

export const OAEP = { name: 'RSA-OAEP', hash: 'SHA-256' } as const

const b64url = (bytes: ArrayBuffer | Uint8Array) => {
  const u8 = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes)
  let s = ''
  for (const b of u8) s += String.fromCharCode(b)
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '')
}
export const fromB64url = (value: string) => {
  const s = atob(value.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((value.length + 3) % 4))
  return Uint8Array.from(s, (c) => c.charCodeAt(0))
}

/** Encrypt the card with the vault's public key (a JWK the server exposes). Browser and workerd. */
export async function encryptCard(publicJwk: JsonWebKey, payload: CardPayload): Promise<string> {
  const rsa = await crypto.subtle.importKey('jwk', { kty: publicJwk.kty, n: publicJwk.n, e: publicJwk.e, alg: 'RSA-OAEP-256', ext: true }, OAEP, false, ['encrypt'])
  const raw = crypto.getRandomValues(new Uint8Array(32))
  const aes = await crypto.subtle.importKey('raw', raw, 'AES-GCM', false, ['encrypt'])
  const iv = crypto.getRandomValues(new Uint8Array(12))
  const body = JSON.stringify({ cardNumber: digits(payload.cardNumber), cardMonth: payload.cardMonth, cardYear: payload.cardYear, cardCvv: payload.cardCvv, origin: payload.origin })
  const ct = await crypto.subtle.encrypt({ name: 'AES-GCM', iv }, aes, new TextEncoder().encode(body))
  const wrapped = await crypto.subtle.encrypt(OAEP, rsa, raw)
  return `v1.${b64url(wrapped)}.${b64url(iv)}.${b64url(ct)}`
}
