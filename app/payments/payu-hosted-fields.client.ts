// Browser glue for PayU's Secure Form on our card page (issue 25; developers.payu.com "Secure
// Form", "Card Tokenization"): the SDK script (PayU's, or the dev peer's with the same surface) is
// already loaded by the page and exposes `PayU(posId)`; its secure forms go into the page's empty,
// labelled containers #hf-number, #hf-expiry, #hf-cvv, and `tokenize(type)` turns what the buyer
// typed into a token (MULTI: a TOK_ PayU turns into a multi-use TOKC_ with the first payment). The
// card number never reaches our server: only the token is posted. Texts are the page's (reason only).

type TokenizeAnswer =
  | { status: 'SUCCESS'; body: { token: string; mask?: string } }
  | { status: 'ERROR'; error?: { messages?: Array<{ type?: string; code?: string; source?: string; message?: string }> } }

type SecureForm = { render(selector: string): SecureForm; remove?(): SecureForm }
type PayuSdk = {
  secureForms(options?: Record<string, unknown>): { add(type: 'number' | 'date' | 'cvv', options?: Record<string, unknown>): SecureForm }
  tokenize(type: 'SINGLE' | 'MULTI'): Promise<TokenizeAnswer>
}
type PayuFactory = (posId: string, options?: Record<string, unknown>) => PayuSdk

export type HostedFieldsHandle = {
  tokenize(): Promise<{ ok: true; token: string } | { ok: false; reason: 'invalid' | 'unavailable' }>
  teardown(): void
}

const CONTAINERS = { number: '#hf-number', date: '#hf-expiry', cvv: '#hf-cvv' } as const

export async function mountHostedFields(config: Record<string, unknown>, locale: 'en' | 'pl'): Promise<HostedFieldsHandle> {
  const factory = (globalThis as unknown as { PayU?: PayuFactory }).PayU
  const posId = typeof config.posId === 'string' ? config.posId : null
  if (typeof factory !== 'function' || !posId) {
    // The SDK did not load (blocked, offline): the page says the card form is unavailable.
    return { tokenize: async () => ({ ok: false, reason: 'unavailable' }), teardown: () => {} }
  }
  const payu = factory(posId)
  const lang = config.lang === 'pl' || config.lang === 'en' ? config.lang : locale
  const secureForms = payu.secureForms({ lang })
  const forms = (Object.keys(CONTAINERS) as Array<keyof typeof CONTAINERS>).map((type) => secureForms.add(type).render(CONTAINERS[type]))
  const tokenType = config.tokenType === 'SINGLE' ? 'SINGLE' : 'MULTI'

  return {
    async tokenize() {
      let answer: TokenizeAnswer
      try {
        answer = await payu.tokenize(tokenType)
      } catch {
        return { ok: false, reason: 'unavailable' }
      }
      if (answer.status === 'SUCCESS' && typeof answer.body?.token === 'string' && answer.body.token) return { ok: true, token: answer.body.token }
      // Validation messages are about what the buyer typed; anything else is PayU's side.
      const messages = answer.status === 'ERROR' ? answer.error?.messages ?? [] : []
      return { ok: false, reason: messages.some((m) => m.type === 'validation') ? 'invalid' : 'unavailable' }
    },
    teardown() {
      for (const form of forms) form.remove?.()
    },
  }
}
