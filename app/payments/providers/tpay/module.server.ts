// Tpay as a provider module (issue 25; seed 001 §3 "Tpay (subscription only)"): the school pastes an
// Open API key from Tpay's Merchant Panel (Integrations → API: client id and secret), optionally its
// merchant id (notifications naming another merchant are then refused), and says whether it is a
// sandbox account. `connect` gets an OAuth token with them before anything is sealed. Tpay takes PLN.
// The notification URL is sent with every transaction (callbacks.notification.url), so there is
// nothing to paste in Tpay's panel.
import { z } from 'zod'
import { msg, parseWith } from '#app/utils/validation.ts'
import type { ProviderModule } from '../provider-module.server.ts'
import { tpayClient, type TpayCredentials } from './client.server.ts'
import { tpayAdapter, tpayEndpoints } from './tpay.server.ts'

// Any problem with a field is that field's one message (every issue of it, the type's included).
const fieldsSchema = z.object({
  clientId: z
    .string({ message: msg('payments.tpay.error.clientId') })
    .trim()
    .regex(/^[A-Za-z0-9-]{1,64}$/, msg('payments.tpay.error.clientId')),
  clientSecret: z
    .string({ message: msg('payments.tpay.error.clientSecret') })
    .trim()
    .regex(/^\S{8,200}$/, msg('payments.tpay.error.clientSecret')),
  merchantId: z
    .string({ message: msg('payments.tpay.error.merchantId') })
    .trim()
    .regex(/^(\d{1,12})?$/, msg('payments.tpay.error.merchantId'))
    .optional()
    .transform((v) => v || null),
  sandbox: z.enum(['yes', 'no'], { message: msg('payments.tpay.error.sandbox') }).default('no'),
})

/** Stored credentials (all strings) → the client's shape. */
export function tpayCredentials(stored: Record<string, string>): TpayCredentials {
  return { clientId: stored.clientId ?? '', clientSecret: stored.clientSecret ?? '', merchantId: stored.merchantId || null, sandbox: stored.sandbox === 'yes' }
}

export const tpayModule: ProviderModule = {
  provider: 'tpay',
  currencies: ['PLN'],
  fields: [
    { name: 'clientId', kind: 'text', labelKey: 'payments.tpay.field.clientId', hintKey: 'payments.tpay.field.clientId.hint' },
    { name: 'clientSecret', kind: 'secret', labelKey: 'payments.tpay.field.clientSecret' },
    { name: 'merchantId', kind: 'text', labelKey: 'payments.tpay.field.merchantId', hintKey: 'payments.tpay.field.merchantId.hint', inputMode: 'numeric' },
    { name: 'sandbox', kind: 'sandbox', labelKey: 'payments.tpay.field.sandbox' },
  ],

  async connect(ctx, input) {
    const parsed = parseWith(fieldsSchema, input.fields)
    if (!parsed.ok) return { ok: false, errors: parsed.errors, status: 422 }
    const f = parsed.data
    if (input.currency !== 'PLN') return { ok: false, errors: { currency: { key: 'payments.tpay.error.currency' } }, status: 422 }
    if (f.sandbox === 'yes' && !ctx.testPaymentsAllowed) return { ok: false, errors: { sandbox: { key: 'payments.tpay.error.sandbox_not_allowed' } }, status: 422 }
    const credentials: TpayCredentials = { clientId: f.clientId, clientSecret: f.clientSecret, merchantId: f.merchantId, sandbox: f.sandbox === 'yes' }
    const checked = await tpayClient(ctx.fetch, tpayEndpoints(ctx, credentials.sandbox).base, credentials).token()
    if (!checked.ok) {
      return checked.reason === 'unavailable'
        ? { ok: false, errors: { form: { key: 'payments.error.unavailable', values: { provider: 'Tpay' } } }, status: 502 }
        : { ok: false, errors: { clientSecret: { key: 'payments.tpay.error.refused' } }, status: 422 }
    }
    return {
      ok: true,
      credentials: { clientId: f.clientId, clientSecret: f.clientSecret, merchantId: f.merchantId ?? '', sandbox: f.sandbox },
      // What the owner recognises in Tpay's panel; never the secret.
      publicRef: `${f.clientId}${f.sandbox === 'yes' ? ' (sandbox)' : ''}`,
    }
  },

  usesTestCredentials: (stored) => stored.sandbox === 'yes',

  adapter: (ctx, stored) => tpayAdapter(ctx, tpayCredentials(stored)),
}
