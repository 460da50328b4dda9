// The card page's glue for PayLane (issue 25): plain inputs in the page's #hf-number, #hf-expiry and
// #hf-cvv containers, WITHOUT name attributes (PayLane.js's rule: card data never posts to the
// merchant's server), tokenized in the browser by PayLane.js — `PayLane.setPublicApiKey(key)` and
// `PayLane.card.generateToken({cardNumber, expirationMonth, expirationYear, nameOnCard,
// cardSecurityCode}, onToken, onError)` as PayLane's plugins call it. Only the one-time token (valid
// 15 minutes, one sale) goes to our server. No app catalogue here: the page shows its own texts for
// the reason; the few placeholders are the card's own notation.
type PaylaneJs = {
  setPublicApiKey(key: string): void
  card: {
    generateToken(
      data: { cardNumber: string; expirationMonth: string; expirationYear: string; nameOnCard: string; cardSecurityCode: string },
      onToken: (token: string) => void,
      onError: (error: unknown) => void,
    ): void
  }
}

type TokenizeResult = { ok: true; token: string } | { ok: false; reason: 'invalid' | 'unavailable' }

const PLACEHOLDERS = {
  en: { number: '1234 1234 1234 1234', expiry: 'MM/YY', cvv: 'CVV' },
  pl: { number: '1234 1234 1234 1234', expiry: 'MM/RR', cvv: 'CVV' },
} as const

function input(containerId: string, attrs: Record<string, string>) {
  const container = document.getElementById(containerId)
  if (!container) throw new Error(`paylane: #${containerId} is missing`)
  const el = document.createElement('input')
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v)
  // Labelled by the page's own <label> (the container's aria-labelledby).
  const labelledBy = container.getAttribute('aria-labelledby')
  if (labelledBy) el.setAttribute('aria-labelledby', labelledBy)
  el.removeAttribute('name')
  container.replaceChildren(el)
  return el
}

const digits = (value: string) => value.replace(/\D/g, '')

/** "MM/YY", "MM / YYYY", "MMYY" → [MM, YYYY]; null when it is not a month and year. */
function expiryOf(value: string): [string, string] | null {
  const m = /^\s*(\d{1,2})\s*\/?\s*(\d{2}|\d{4})\s*$/.exec(value)
  if (!m) return null
  const month = Number(m[1])
  if (month < 1 || month > 12) return null
  const year = m[2]!.length === 2 ? `20${m[2]}` : m[2]!
  return [String(month).padStart(2, '0'), year]
}

export async function mountHostedFields(config: Record<string, unknown>, locale: 'en' | 'pl'): Promise<{ tokenize(): Promise<TokenizeResult>; teardown(): void }> {
  const sdk = (window as unknown as { PayLane?: PaylaneJs }).PayLane
  const key = typeof config.publicApiKey === 'string' ? config.publicApiKey : ''
  if (!sdk || !key) throw new Error('paylane: PayLane.js did not load')
  sdk.setPublicApiKey(key)
  const text = PLACEHOLDERS[locale] ?? PLACEHOLDERS.en
  const number = input('hf-number', { type: 'text', inputmode: 'numeric', autocomplete: 'cc-number', placeholder: text.number, maxlength: '23', 'data-paylane': 'cc-number' })
  const expiry = input('hf-expiry', { type: 'text', inputmode: 'numeric', autocomplete: 'cc-exp', placeholder: text.expiry, maxlength: '7', 'data-paylane': 'cc-expiry' })
  const cvv = input('hf-cvv', { type: 'password', inputmode: 'numeric', autocomplete: 'cc-csc', placeholder: text.cvv, maxlength: '4', 'data-paylane': 'cc-cvv' })
  // PayLane wants a cardholder name (2–50 characters): the buyer's name from checkout when there is one.
  const nameOnCard = typeof config.nameOnCard === 'string' && config.nameOnCard.trim().length >= 2 ? config.nameOnCard.trim() : 'Card holder'

  return {
    tokenize() {
      const cardNumber = digits(number.value)
      const exp = expiryOf(expiry.value)
      const code = digits(cvv.value)
      for (const [el, bad] of [
        [number, cardNumber.length < 12 || cardNumber.length > 19],
        [expiry, !exp],
        [cvv, code.length < 3 || code.length > 4],
      ] as const) {
        el.setAttribute('aria-invalid', bad ? 'true' : 'false')
      }
      if (cardNumber.length < 12 || cardNumber.length > 19 || !exp || code.length < 3 || code.length > 4) return Promise.resolve({ ok: false, reason: 'invalid' })
      return new Promise<TokenizeResult>((resolve) => {
        try {
          sdk.card.generateToken(
            { cardNumber, expirationMonth: exp[0], expirationYear: exp[1], nameOnCard, cardSecurityCode: code },
            (token) => resolve(typeof token === 'string' && token ? { ok: true, token } : { ok: false, reason: 'unavailable' }),
            // PayLane.js hands over the API's error ({error_number, …}); a connection failure has no number we know.
            (error) => {
              const n = Number((error as { error_number?: unknown } | null)?.error_number ?? 0)
              resolve({ ok: false, reason: n > 0 && !(n >= 500 && n < 600) ? 'invalid' : 'unavailable' })
            },
          )
        } catch {
          resolve({ ok: false, reason: 'unavailable' })
        }
      })
    },
    teardown() {
      for (const el of [number, expiry, cvv]) {
        el.value = ''
        el.remove()
      }
    },
  }
}
