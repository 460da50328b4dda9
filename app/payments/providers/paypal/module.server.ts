// PayPal as a payment module (issue 25): the school pastes its REST app's client id and secret
// (Developer Dashboard → Apps & Credentials); connecting gets a token (the credentials work), then
// creates the webhook for this integration's notify URL (POST /v1/notifications/webhooks) and keeps
// its id, which every notification is verified against (verify-webhook-signature needs it).
// Docs: developer.paypal.com "Authentication", "Webhooks Management API" (create webhook; 400
// WEBHOOK_URL_ALREADY_EXISTS, WEBHOOK_NUMBER_LIMIT_EXCEEDED at 10 per app).
import { z } from 'zod'
import { type FieldErrors, msg, parseWith } from '#app/utils/validation.ts'
import type { ConnectResult, ProviderModule } from '../provider-module.server.ts'
import { PAYPAL_EVENT_TYPES, paypalAdapter } from './adapter.server.ts'
import { issueOf, paypalClient, storedCredentials, webhookListSchema, webhookSchema } from './client.server.ts'

export const PAYPAL_CURRENCIES = ['PLN', 'EUR', 'USD', 'GBP'] as const

// PayPal's REST client ids and secrets are 80-ish URL-safe characters; a little room either way.
// Any problem with a key is the one "check the key" message; with the switch, the switch's.
const key = z
  .string({ message: msg('payments.paypal.error.key') })
  .trim()
  .regex(/^[A-Za-z0-9_-]{16,128}$/, msg('payments.paypal.error.key'))
const connectFields = z.object({
  clientId: key,
  clientSecret: key,
  sandbox: z.enum(['yes', 'no', 'true', 'false'], { message: msg('payments.paypal.error.sandbox') }).transform((v) => v === 'yes' || v === 'true'),
})

const refuse = (errors: FieldErrors, status = 422): ConnectResult => ({ ok: false, errors, status })

export const paypalModule: ProviderModule = {
  provider: 'paypal',
  currencies: PAYPAL_CURRENCIES,
  fields: [
    { name: 'clientId', kind: 'text', labelKey: 'payments.paypal.field.clientId', hintKey: 'payments.paypal.field.clientId.hint', inputMode: 'text' },
    { name: 'clientSecret', kind: 'secret', labelKey: 'payments.paypal.field.clientSecret', hintKey: 'payments.paypal.field.clientSecret.hint', inputMode: 'text' },
    { name: 'sandbox', kind: 'sandbox', labelKey: 'payments.paypal.field.sandbox', hintKey: 'payments.paypal.field.sandbox.hint' },
  ],

  async connect(ctx, input) {
    const parsed = parseWith(connectFields, { clientId: input.fields.clientId ?? '', clientSecret: input.fields.clientSecret ?? '', sandbox: input.fields.sandbox || 'no' })
    if (!parsed.ok) return refuse(parsed.errors)
    const { clientId, clientSecret, sandbox } = parsed.data
    if (sandbox && !ctx.testPaymentsAllowed) return refuse({ sandbox: { key: 'payments.paypal.error.sandbox_not_allowed' } })
    if (!(PAYPAL_CURRENCIES as readonly string[]).includes(input.currency.toUpperCase())) return refuse({ form: { key: 'payments.paypal.error.currency', values: { currency: input.currency } } })

    const client = paypalClient(ctx, { clientId, clientSecret, sandbox, webhookId: null })
    const token = await client.accessToken()
    if (!token.ok) {
      return token.reason === 'refused'
        ? refuse({ clientSecret: { key: sandbox ? 'payments.paypal.error.refused_sandbox' : 'payments.paypal.error.refused' } })
        : refuse({ form: { key: 'payments.error.unavailable', values: { provider: 'PayPal' } } }, 502)
    }
    const created = await client.call('POST', '/v1/notifications/webhooks', webhookSchema, { json: { url: input.notifyUrl, event_types: PAYPAL_EVENT_TYPES.map((name) => ({ name })) } })
    let webhookId: string | null = created.ok ? created.body.id : null
    if (!created.ok && created.kind === 'error' && issueOf(created) === 'WEBHOOK_URL_ALREADY_EXISTS') {
      // Connected before with this address (a retried form): use that webhook.
      const list = await client.call('GET', '/v1/notifications/webhooks', webhookListSchema)
      webhookId = list.ok ? list.body.webhooks.find((w) => w.url === input.notifyUrl)?.id ?? null : null
    }
    if (!webhookId) {
      if (!created.ok && created.kind === 'unavailable') return refuse({ form: { key: 'payments.error.unavailable', values: { provider: 'PayPal' } } }, 502)
      const limit = !created.ok && created.kind === 'error' && issueOf(created) === 'WEBHOOK_NUMBER_LIMIT_EXCEEDED'
      return refuse({ form: { key: limit ? 'payments.paypal.error.webhook_limit' : 'payments.paypal.error.webhook', values: { url: input.notifyUrl } } })
    }
    return {
      ok: true,
      credentials: { clientId, clientSecret, sandbox: String(sandbox), webhookId },
      // The client id is public (PayPal's JS SDK shows it); the secret never leaves the seal.
      publicRef: `${clientId.length > 16 ? `${clientId.slice(0, 12)}…` : clientId}${sandbox ? ' · sandbox' : ''}`,
    }
  },

  usesTestCredentials: (credentials) => credentials.sandbox === 'true',

  adapter(ctx, credentials) {
    return paypalAdapter(ctx, storedCredentials.parse(credentials))
  },
}
