// Przelewy24 as a provider module (issue 25): the school types its merchant id, POS id, API key
// ("Klucz do raportów") and CRC key from P24's panel; GET /api/v1/testAccess checks the POS id and
// API key before anything is sealed (the CRC cannot be checked without registering a transaction:
// a wrong one shows as P24 refusing payments). urlStatus is sent with every transaction, so there
// is no notification URL to paste. Sandbox credentials are test money.
import { z } from 'zod'
import { msg, parseWith } from '#app/utils/validation.ts'
import type { ProviderModule } from '../provider-module.server.ts'
import { p24Adapter } from './adapter.server.ts'
import { p24Client, type P24Credentials } from './client.server.ts'

/** P24's transaction currencies (REST API: currency, ISO 4217). */
export const P24_CURRENCIES = ['PLN', 'EUR', 'GBP', 'CZK'] as const

const id = (key: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{1,10}$/, msg(key))
const formSchema = z
  .object({
    merchantId: id('payments.p24.error.merchant_id'),
    // P24: the POS id defaults to the merchant id.
    posId: z.union([z.literal(''), id('payments.p24.error.pos_id')]).default(''),
    apiKey: z.string().trim().min(1, msg('payments.p24.error.api_key')).max(128, msg('payments.p24.error.api_key')),
    crc: z.string().trim().min(1, msg('payments.p24.error.crc')).max(128, msg('payments.p24.error.crc')),
    sandbox: z.enum(['yes', 'no'], { message: msg('payments.p24.error.sandbox') }),
  })
  .transform((f) => ({ merchantId: f.merchantId, posId: f.posId || f.merchantId, apiKey: f.apiKey, crc: f.crc, sandbox: f.sandbox }))

/** The sealed credentials as stored (strings), read back. */
const storedSchema = z.object({
  merchantId: z.string().regex(/^\d+$/),
  posId: z.string().regex(/^\d+$/),
  apiKey: z.string().min(1),
  crc: z.string().min(1),
  sandbox: z.enum(['yes', 'no']),
})

function credentialsOf(stored: Record<string, string>): P24Credentials {
  const c = storedSchema.parse(stored)
  return { merchantId: Number(c.merchantId), posId: Number(c.posId), apiKey: c.apiKey, crc: c.crc, sandbox: c.sandbox === 'yes' }
}

export const p24Module: ProviderModule = {
  provider: 'p24',
  currencies: P24_CURRENCIES,
  fields: [
    { name: 'merchantId', kind: 'text', labelKey: 'payments.p24.field.merchant_id', hintKey: 'payments.p24.field.merchant_id.hint', inputMode: 'numeric' },
    { name: 'posId', kind: 'text', labelKey: 'payments.p24.field.pos_id', hintKey: 'payments.p24.field.pos_id.hint', inputMode: 'numeric' },
    { name: 'apiKey', kind: 'secret', labelKey: 'payments.p24.field.api_key', hintKey: 'payments.p24.field.api_key.hint' },
    { name: 'crc', kind: 'secret', labelKey: 'payments.p24.field.crc', hintKey: 'payments.p24.field.crc.hint' },
    { name: 'sandbox', kind: 'sandbox', labelKey: 'payments.p24.field.sandbox', hintKey: 'payments.p24.field.sandbox.hint' },
  ],

  async connect(ctx, input) {
    const parsed = parseWith(formSchema, input.fields)
    if (!parsed.ok) return { ok: false, errors: parsed.errors, status: 422 }
    const credentials = parsed.data
    if (credentials.sandbox === 'yes' && !ctx.testPaymentsAllowed) return { ok: false, errors: { sandbox: { key: 'payments.p24.error.sandbox_not_allowed' } }, status: 422 }
    const access = await p24Client(ctx, credentialsOf(credentials)).testAccess()
    if (access === 'unavailable') return { ok: false, errors: { form: { key: 'payments.p24.error.unreachable' } }, status: 502 }
    if (access === 'refused') return { ok: false, errors: { apiKey: { key: 'payments.p24.error.refused' } }, status: 422 }
    return { ok: true, credentials, publicRef: `${credentials.merchantId}${credentials.sandbox === 'yes' ? ' · sandbox' : ''}` }
  },

  usesTestCredentials: (credentials) => credentials.sandbox !== 'no',

  adapter: (ctx, credentials) => p24Adapter(ctx, credentialsOf(credentials)),
}
