// Browser glue for Braintree Hosted Fields (developer.paypal.com/braintree/docs/guides/hosted-fields/
// setup-and-integration/javascript/v3): `braintree.client.create({authorization})`, then
// `braintree.hostedFields.create({client, fields})` mounts one iframe per field into the card page's
// containers; `tokenize()` gives a one-time nonce and the card never reaches our page or server.
// The SDK scripts are loaded by the page (module.hostedFields.page()). Error texts are the page's.

type Tokenized = { nonce: string; details?: Record<string, unknown> }
type HostedFieldsInstance = { tokenize(): Promise<Tokenized>; teardown(): Promise<void> }
type BraintreeWeb = {
  client: { create(options: { authorization: string }): Promise<unknown> }
  hostedFields: {
    create(options: {
      client: unknown
      fields: Record<'number' | 'expirationDate' | 'cvv', { container: string; placeholder?: string }>
      styles?: Record<string, Record<string, string>>
    }): Promise<HostedFieldsInstance>
  }
}

// Placeholders only show the format; the page's own labels name the fields.
const PLACEHOLDERS = {
  en: { number: '1111 1111 1111 1111', expirationDate: 'MM/YY', cvv: '123' },
  pl: { number: '1111 1111 1111 1111', expirationDate: 'MM/RR', cvv: '123' },
} as const

/** Braintree's error codes for what the buyer typed (empty or invalid fields). */
const INVALID_CODES = new Set(['HOSTED_FIELDS_FIELDS_EMPTY', 'HOSTED_FIELDS_FIELDS_INVALID', 'HOSTED_FIELDS_TOKENIZATION_CVV_VERIFICATION_FAILED', 'HOSTED_FIELDS_FAILED_TOKENIZATION'])

export async function mountHostedFields(
  config: Record<string, unknown>,
  locale: 'en' | 'pl',
): Promise<{ tokenize(): Promise<{ ok: true; token: string } | { ok: false; reason: 'invalid' | 'unavailable' }>; teardown(): void }> {
  const braintree = (window as unknown as { braintree?: BraintreeWeb }).braintree
  const authorization = typeof config.clientToken === 'string' ? config.clientToken : null
  if (!braintree?.client || !braintree.hostedFields || !authorization) throw new Error('Braintree SDK not loaded')
  const client = await braintree.client.create({ authorization })
  const placeholders = PLACEHOLDERS[locale] ?? PLACEHOLDERS.en
  const instance = await braintree.hostedFields.create({
    client,
    fields: {
      number: { container: '#hf-number', placeholder: placeholders.number },
      expirationDate: { container: '#hf-expiry', placeholder: placeholders.expirationDate },
      cvv: { container: '#hf-cvv', placeholder: placeholders.cvv },
    },
    styles: { input: { 'font-size': '16px' } },
  })
  return {
    async tokenize() {
      try {
        const { nonce } = await instance.tokenize()
        return typeof nonce === 'string' && nonce ? { ok: true, token: nonce } : { ok: false, reason: 'unavailable' }
      } catch (error) {
        const code = (error as { code?: string } | null)?.code ?? ''
        return { ok: false, reason: INVALID_CODES.has(code) ? 'invalid' : 'unavailable' }
      }
    },
    teardown() {
      void instance.teardown().catch(() => undefined)
    },
  }
}
