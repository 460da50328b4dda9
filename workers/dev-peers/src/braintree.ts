// Braintree GraphQL API peer (development and tests), after Braintree's public docs:
// graphql.braintreepayments.com / developer.paypal.com/braintree/graphql (reference: chargePaymentMethod,
// vaultPaymentMethod, refundTransaction, reverseTransaction, createClientToken, node, search.transactions,
// viewer, ping) and developer.paypal.com/braintree/docs/guides/webhooks (bt_signature / bt_payload),
// reference/general/testing (test cards, amount-driven processor declines 2000–2999).
//
//   POST /braintree/graphql                        Basic base64(publicKey:privateKey), Braintree-Version, JSON {query, variables}
//   GET  /braintree/hosted/js/client.js            the mini SDK: braintree.client.create({authorization})
//   GET  /braintree/hosted/js/hosted-fields.js     braintree.hostedFields.create({client, fields}) → tokenize()
//   GET  /braintree/hosted/field                   one field (an iframe on pay.localhost)
//   POST /braintree/hosted/client_api/v1/payment_methods/credit_cards   tokenization (client token fingerprint)
//   /_peer/braintree/…                             control: reset, fault, nonce, settle, webhook-url, notifications
//
// This is no GraphQL engine: each operation our client sends is recognised by its operation name
// and answered with the fields that operation selects. Where the public docs are silent the peer
// chooses, and says so:
// - A processor decline is answered as Braintree's GraphQL does for a created-but-declined sale: the
//   transaction in `data` with status PROCESSOR_DECLINED and its processorResponse in statusHistory,
//   plus an error (extensions.errorClass VALIDATION) naming the decline.
// - Transactions stay SUBMITTED_FOR_SETTLEMENT until `/_peer/braintree/settle` (the sandbox's batch),
//   which moves them to SETTLED and sends the `transaction_settled` webhook to the merchant's
//   configured destination (`/_peer/braintree/webhook-url`; a Control Panel setting at Braintree).
// - Global ids are base64("transaction_" + legacyId) without padding, like Braintree's.
import { Hono } from 'hono'
import { z } from 'zod'
import { post, type PeersEnv, type PeersHono } from './env.ts'

/** The development account the peer knows (mirrored in docs/payments/braintree.md). */
export const BRAINTREE_DEV = {
  merchantId: 'coursefrontdev',
  publicKey: 'cf_dev_braintree_public',
  privateKey: 'cf_dev_braintree_private_key_00000000',
  merchantAccounts: { PLN: 'coursefront_pln', EUR: 'coursefront_eur', USD: 'coursefront_usd', GBP: 'coursefront_gbp' },
} as const
/** Another account: sees nothing of the first one's. */
export const BRAINTREE_STRANGER = {
  merchantId: 'strangermerchant',
  publicKey: 'stranger_braintree_public',
  privateKey: 'stranger_braintree_private_key_000000',
  merchantAccounts: { PLN: 'stranger_pln', EUR: 'stranger_eur', USD: 'stranger_usd', GBP: 'stranger_gbp' },
} as const
type Merchant = { merchantId: string; publicKey: string; privateKey: string; merchantAccounts: Readonly<Record<string, string>> }
const MERCHANTS: Merchant[] = [BRAINTREE_DEV, BRAINTREE_STRANGER]
/** wrangler dev's port: the buyer's browser reaches the hosted scripts at pay.localhost:8787 (server.ts forwards them). */
const PAGE_PORT = 8787

/** Braintree's test cards (reference/general/testing): number → processor response when declined. */
export const BRAINTREE_TEST_CARDS: Record<string, { brand: string; decline?: string }> = {
  '4111111111111111': { brand: 'VISA' },
  '4005519200000004': { brand: 'VISA' },
  '5555555555554444': { brand: 'MASTERCARD' },
  '2223000048400011': { brand: 'MASTERCARD' },
  '378282246310005': { brand: 'AMERICAN_EXPRESS' },
  '4000111111111115': { brand: 'VISA', decline: '2000' },
  '5105105105105100': { brand: 'MASTERCARD', decline: '2000' },
}
/** Processor response codes (reference/general/processor-responses/authorization-responses). */
export const PROCESSOR_RESPONSES: Record<string, string> = {
  '1000': 'Approved',
  '2000': 'Do Not Honor',
  '2001': 'Insufficient Funds',
  '2002': 'Limit Exceeded',
  '2004': 'Expired Card',
  '2005': 'Invalid Credit Card Number',
  '2010': 'Card Issuer Declined CVV',
  '2012': 'Processor Declined - Possible Lost Card',
  '2013': 'Processor Declined - Possible Stolen Card',
  '2038': 'Processor Declined',
  '2046': 'Declined',
}

const EXPONENT: Record<string, number> = { PLN: 2, EUR: 2, USD: 2, GBP: 2 }
const decimal = (minor: number, currency: string) => {
  const e = EXPONENT[currency] ?? 2
  const s = String(Math.abs(minor)).padStart(e + 1, '0')
  return `${minor < 0 ? '-' : ''}${s.slice(0, s.length - e)}.${s.slice(s.length - e)}`
}
/** Braintree's Amount scalar: a decimal string; more fraction digits than the currency has is invalid. */
function minorOf(amount: string, currency: string): number | null {
  const e = EXPONENT[currency] ?? 2
  const m = /^(\d{1,10})(?:\.(\d{1,2}))?$/.exec(amount)
  if (!m || (m[2]?.length ?? 0) > e) return null
  return Number(m[1]) * 10 ** e + Number((m[2] ?? '').padEnd(e, '0') || 0)
}
const b64 = (s: string) => btoa(s).replace(/=+$/, '')
export const globalId = (kind: 'transaction' | 'refund' | 'paymentmethod' | 'customer', legacyId: string) => b64(`${kind}_${legacyId}`)
function legacyOf(id: string, kind: string): string | null {
  try {
    const decoded = atob(id.padEnd(id.length + ((4 - (id.length % 4)) % 4), '='))
    return decoded.startsWith(`${kind}_`) ? decoded.slice(kind.length + 1) : null
  } catch {
    return null
  }
}
const shortId = () => crypto.randomUUID().replace(/-/g, '').slice(0, 8)

type TxRow = {
  legacy_id: string
  merchant_id: string
  merchant_account_id: string
  order_id: string | null
  amount: number
  currency: string
  status: string
  payment_method_id: string | null
  payment_method_usage: string | null
  card: string
  processor_code: string | null
  processor_message: string | null
  created_at: number
  updated_at: number
}
type RefundRow = { legacy_id: string; merchant_id: string; transaction_legacy_id: string; order_id: string | null; amount: number; currency: string; status: string; created_at: number }
type PmRow = { id: string; merchant_id: string; usage: 'SINGLE_USE' | 'MULTI_USE'; customer_id: string | null; card: string; consumed: number; created_at: number }
type Card = { number: string; expMonth: number; expYear: number }

const brandOf = (number: string) =>
  BRAINTREE_TEST_CARDS[number]?.brand ?? (number.startsWith('4') ? 'VISA' : /^(5[1-5]|2[2-7])/.test(number) ? 'MASTERCARD' : /^3[47]/.test(number) ? 'AMERICAN_EXPRESS' : 'UNKNOWN')
const luhn = (number: string) => {
  let sum = 0
  for (let i = 0; i < number.length; i++) {
    let d = Number(number[number.length - 1 - i])
    if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2
    sum += d
  }
  return sum % 10 === 0
}

function cardDetails(card: Card) {
  return {
    __typename: 'CreditCardDetails',
    brandCode: brandOf(card.number),
    last4: card.number.slice(-4),
    bin: card.number.slice(0, 6),
    expirationMonth: String(card.expMonth).padStart(2, '0'),
    expirationYear: String(card.expYear),
  }
}

function transactionView(row: TxRow, refunds: RefundRow[]) {
  const card = JSON.parse(row.card) as Card
  const declined = row.status === 'PROCESSOR_DECLINED'
  return {
    __typename: 'Transaction',
    id: globalId('transaction', row.legacy_id),
    legacyId: row.legacy_id,
    createdAt: new Date(row.created_at).toISOString(),
    status: row.status,
    orderId: row.order_id,
    merchantAccountId: row.merchant_account_id,
    amount: { value: decimal(row.amount, row.currency), currencyCode: row.currency },
    paymentMethod: row.payment_method_id && row.payment_method_usage === 'MULTI_USE' ? { id: row.payment_method_id, usage: 'MULTI_USE' } : null,
    paymentMethodSnapshot: cardDetails(card),
    statusHistory: [
      declined
        ? {
            __typename: 'ProcessorDeclinedEvent',
            status: row.status,
            timestamp: new Date(row.updated_at).toISOString(),
            processorResponse: { legacyCode: row.processor_code, message: row.processor_message },
          }
        : { __typename: 'TransactionStatusEvent', status: row.status, timestamp: new Date(row.updated_at).toISOString() },
    ],
    refunds: refunds.map(refundView),
  }
}
const refundView = (r: RefundRow) => ({
  __typename: 'Refund',
  id: globalId('refund', r.legacy_id),
  legacyId: r.legacy_id,
  orderId: r.order_id,
  status: r.status,
  amount: { value: decimal(r.amount, r.currency), currencyCode: r.currency },
})

// State

const setting = async (env: PeersEnv, key: string) => (await env.PEERS_DB.prepare('SELECT value FROM braintree_settings WHERE key = ?').bind(key).first<{ value: string }>())?.value ?? null
const setSetting = (env: PeersEnv, key: string, value: string | null) =>
  value === null
    ? env.PEERS_DB.prepare('DELETE FROM braintree_settings WHERE key = ?').bind(key).run()
    : env.PEERS_DB.prepare('INSERT INTO braintree_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value').bind(key, value).run()

const getTx = (env: PeersEnv, merchantId: string, legacyId: string) =>
  env.PEERS_DB.prepare('SELECT * FROM braintree_transactions WHERE merchant_id = ? AND legacy_id = ?').bind(merchantId, legacyId).first<TxRow>()
const refundsOf = async (env: PeersEnv, legacyId: string) =>
  (await env.PEERS_DB.prepare('SELECT * FROM braintree_refunds WHERE transaction_legacy_id = ? ORDER BY created_at').bind(legacyId).all<RefundRow>()).results
const viewTx = async (env: PeersEnv, row: TxRow) => transactionView(row, await refundsOf(env, row.legacy_id))

async function createPaymentMethod(env: PeersEnv, merchantId: string, usage: PmRow['usage'], card: Card, customerId: string | null = null) {
  const id = usage === 'SINGLE_USE' ? `tokencc_bt_${crypto.randomUUID().replace(/-/g, '').slice(0, 20)}` : globalId('paymentmethod', `cc_${shortId()}`)
  await env.PEERS_DB.prepare('INSERT INTO braintree_payment_methods (id, merchant_id, usage, customer_id, card, created_at) VALUES (?, ?, ?, ?, ?, ?)')
    .bind(id, merchantId, usage, customerId, JSON.stringify(card), Date.now())
    .run()
  return id
}

/** What the issuer answers for this card and amount: the sandbox declines 2000.00–2999.99 with the code of the amount. */
function processorAnswer(card: Card, amount: number, currency: string) {
  const now = new Date()
  if (card.expYear < now.getUTCFullYear() || (card.expYear === now.getUTCFullYear() && card.expMonth < now.getUTCMonth() + 1)) return '2004'
  const fixed = BRAINTREE_TEST_CARDS[card.number]?.decline
  if (fixed) return fixed
  const units = Math.floor(amount / 10 ** (EXPONENT[currency] ?? 2))
  if (units >= 2000 && units <= 2999) return String(units)
  return '1000'
}

// Webhooks (guides/webhooks/parse): form-encoded bt_signature + bt_payload (base64 XML).

const hex = (b: ArrayBuffer) => [...new Uint8Array(b)].map((x) => x.toString(16).padStart(2, '0')).join('')
export async function signPayload(privateKey: string, payload: string) {
  const keyBytes = await crypto.subtle.digest('SHA-1', new TextEncoder().encode(privateKey))
  const key = await crypto.subtle.importKey('raw', keyBytes, { name: 'HMAC', hash: 'SHA-1' }, false, ['sign'])
  return hex(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(payload)))
}
const xmlEscape = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
/** base64 in 60-character lines, as Braintree's payloads come. */
const base64Lines = (text: string) => {
  const bytes = new TextEncoder().encode(text)
  let bin = ''
  for (const b of bytes) bin += String.fromCharCode(b)
  return (btoa(bin).match(/.{1,60}/g) ?? []).join('\n') + '\n'
}

export async function notificationBody(merchant: Merchant, kind: string, row: TxRow | null) {
  const subject = row
    ? `<transaction><id>${row.legacy_id}</id><status>${row.status.toLowerCase()}</status><type>sale</type><amount>${decimal(row.amount, row.currency)}</amount><currency-iso-code>${
        row.currency
      }</currency-iso-code><order-id>${xmlEscape(row.order_id ?? '')}</order-id><merchant-account-id>${xmlEscape(row.merchant_account_id)}</merchant-account-id></transaction>`
    : '<check type="boolean">true</check>'
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<notification><kind>${kind}</kind><timestamp type="datetime">${new Date().toISOString()}</timestamp><subject>${subject}</subject></notification>\n`
  const payload = base64Lines(xml)
  const signature = `${merchant.publicKey}|${await signPayload(merchant.privateKey, payload)}`
  return new URLSearchParams({ bt_signature: signature, bt_payload: payload }).toString()
}

async function notify(env: PeersEnv, merchant: Merchant, kind: string, row: TxRow | null) {
  const body = await notificationBody(merchant, kind, row)
  const url = await setting(env, `webhook:${merchant.merchantId}`)
  let status: number | null = null
  if (url) {
    try {
      status = await post(env, new Request(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body }))
    } catch {
      status = 0
    }
  }
  await env.PEERS_DB.prepare('INSERT INTO braintree_notifications (id, merchant_id, order_id, transaction_legacy_id, kind, url, body, delivery_status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)')
    .bind(crypto.randomUUID(), merchant.merchantId, row?.order_id ?? null, row?.legacy_id ?? null, kind, url, body, status, Date.now())
    .run()
}

// GraphQL

type Gql = { data?: Record<string, unknown> | null; errors?: { message: string; path?: string[]; extensions: Record<string, unknown> }[]; extensions: { requestId: string } }
const gql = (data: Record<string, unknown> | null, errors?: Gql['errors']): Gql => ({
  ...(data ? { data } : { data: null }),
  ...(errors?.length ? { errors } : {}),
  extensions: { requestId: crypto.randomUUID() },
})
const gqlError = (message: string, errorClass: string, path?: string[], extra: Record<string, unknown> = {}) => ({ message, ...(path ? { path } : {}), extensions: { errorClass, ...extra } })

const body = z.object({ query: z.string().min(1), variables: z.record(z.unknown()).nullish(), operationName: z.string().nullish() })
const operationName = (query: string) => /^\s*(?:query|mutation)\s+([A-Za-z_]\w*)/.exec(query)?.[1] ?? null

const amountInput = z.string()
const chargeInput = z.object({
  paymentMethodId: z.string().min(1),
  transaction: z.object({ amount: amountInput, orderId: z.string().max(255).nullish(), merchantAccountId: z.string().nullish() }).passthrough(),
})
const vaultInput = z.object({
  paymentMethodId: z.string().min(1),
  customerId: z.string().nullish(),
  verification: z.object({ merchantAccountId: z.string().nullish(), skip: z.boolean().nullish() }).passthrough().nullish(),
})
const refundInput = z.object({
  transactionId: z.string().min(1),
  refund: z
    .object({ amount: amountInput.nullish(), orderId: z.string().max(255).nullish() })
    .passthrough()
    .nullish(),
})
const reverseInput = z.object({ transactionId: z.string().min(1) })
const searchInput = z.object({ orderId: z.object({ is: z.string() }).passthrough() }).passthrough()
const clientTokenInput = z
  .object({ clientToken: z.object({ merchantAccountId: z.string().nullish(), customerId: z.string().nullish() }).passthrough().nullish() })
  .passthrough()
  .nullish()

const accountOf = (merchant: Merchant, id: string | null | undefined) => {
  const accountId = id || merchant.merchantAccounts.PLN!
  const currency = Object.entries(merchant.merchantAccounts).find(([, v]) => v === accountId)?.[0]
  return currency ? { accountId, currency } : null
}

async function operate(env: PeersEnv, merchant: Merchant, op: string, variables: Record<string, unknown>, c: { pageOrigin: string }): Promise<Gql> {
  const input = variables.input
  switch (op) {
    case 'Ping':
      return gql({ ping: 'pong' })
    case 'Viewer':
      return gql({
        viewer: {
          merchant: {
            id: merchant.merchantId,
            status: 'ACTIVE',
            merchantAccounts: {
              edges: Object.entries(merchant.merchantAccounts).map(([currencyCode, id]) => ({ node: { id, currencyCode, status: 'ACTIVE', isDefault: currencyCode === 'PLN' } })),
            },
          },
        },
      })
    case 'CreateClientToken': {
      const parsed = clientTokenInput.safeParse(input)
      if (!parsed.success) return gql(null, [gqlError('Variable input is invalid', 'VALIDATION', ['createClientToken'])])
      const account = accountOf(merchant, parsed.data?.clientToken?.merchantAccountId)
      if (!account) return gql({ createClientToken: null }, [gqlError('Unknown merchant account ID', 'VALIDATION', ['createClientToken'], { legacyCode: '91577' })])
      const fingerprint = crypto.randomUUID().replace(/-/g, '')
      await env.PEERS_DB.prepare('INSERT INTO braintree_client_tokens (fingerprint, merchant_id, merchant_account_id, created_at) VALUES (?, ?, ?, ?)')
        .bind(fingerprint, merchant.merchantId, account.accountId, Date.now())
        .run()
      const token = {
        version: 2,
        authorizationFingerprint: fingerprint,
        merchantId: merchant.merchantId,
        environment: 'development',
        assetsUrl: `${c.pageOrigin}/braintree/hosted`,
        clientApiUrl: `${c.pageOrigin}/braintree/hosted/client_api`,
        configUrl: `${c.pageOrigin}/braintree/hosted/client_api/v1/configuration`,
      }
      return gql({ createClientToken: { clientToken: btoa(JSON.stringify(token)) } })
    }
    case 'VaultPaymentMethod': {
      const parsed = vaultInput.safeParse(input)
      if (!parsed.success) return gql(null, [gqlError('Variable input is invalid', 'VALIDATION', ['vaultPaymentMethod'])])
      const pm = await env.PEERS_DB.prepare('SELECT * FROM braintree_payment_methods WHERE id = ? AND merchant_id = ?').bind(parsed.data.paymentMethodId, merchant.merchantId).first<PmRow>()
      if (!pm || pm.usage !== 'SINGLE_USE' || pm.consumed)
        return gql({ vaultPaymentMethod: null }, [
          gqlError('Unknown or expired single-use payment method.', 'VALIDATION', ['vaultPaymentMethod'], { legacyCode: '91565', inputPath: ['input', 'paymentMethodId'] }),
        ])
      await env.PEERS_DB.prepare('UPDATE braintree_payment_methods SET consumed = 1 WHERE id = ?').bind(pm.id).run()
      const card = JSON.parse(pm.card) as Card
      // A verification is run before vaulting (default): a declining card is not vaulted.
      const code = parsed.data.verification?.skip ? '1000' : processorAnswer(card, 100, 'PLN')
      if (code !== '1000') {
        const processorResponse = { legacyCode: code, message: PROCESSOR_RESPONSES[code] ?? 'Processor Declined' }
        return gql({ vaultPaymentMethod: { paymentMethod: null, verification: { status: 'PROCESSOR_DECLINED', processorResponse } } }, [
          gqlError(`Verification failed: ${processorResponse.message}`, 'VALIDATION', ['vaultPaymentMethod'], { legacyCode: code }),
        ])
      }
      const customerId = parsed.data.customerId ?? globalId('customer', shortId())
      const id = await createPaymentMethod(env, merchant.merchantId, 'MULTI_USE', card, customerId)
      return gql({
        vaultPaymentMethod: {
          paymentMethod: { id, legacyId: legacyOf(id, 'paymentmethod'), usage: 'MULTI_USE', customer: { id: customerId }, details: cardDetails(card) },
          verification: { status: 'VERIFIED', processorResponse: { legacyCode: '1000', message: 'Approved' } },
        },
      })
    }
    case 'ChargePaymentMethod': {
      const parsed = chargeInput.safeParse(input)
      if (!parsed.success) return gql(null, [gqlError('Variable input is invalid', 'VALIDATION', ['chargePaymentMethod'])])
      const { paymentMethodId, transaction } = parsed.data
      const account = accountOf(merchant, transaction.merchantAccountId)
      if (!account)
        return gql({ chargePaymentMethod: null }, [
          gqlError('Merchant account ID is invalid.', 'VALIDATION', ['chargePaymentMethod'], { legacyCode: '91513', inputPath: ['input', 'transaction', 'merchantAccountId'] }),
        ])
      const amount = minorOf(transaction.amount, account.currency)
      if (amount === null || amount <= 0)
        return gql({ chargePaymentMethod: null }, [
          gqlError('Amount is an invalid format.', 'VALIDATION', ['chargePaymentMethod'], { legacyCode: '81503', inputPath: ['input', 'transaction', 'amount'] }),
        ])
      const pm = await env.PEERS_DB.prepare('SELECT * FROM braintree_payment_methods WHERE id = ? AND merchant_id = ?').bind(paymentMethodId, merchant.merchantId).first<PmRow>()
      if (!pm || (pm.usage === 'SINGLE_USE' && pm.consumed))
        return gql({ chargePaymentMethod: null }, [
          gqlError('Unknown or expired payment method ID.', 'VALIDATION', ['chargePaymentMethod'], { legacyCode: '91565', inputPath: ['input', 'paymentMethodId'] }),
        ])
      if (pm.usage === 'SINGLE_USE') await env.PEERS_DB.prepare('UPDATE braintree_payment_methods SET consumed = 1 WHERE id = ?').bind(pm.id).run()
      const card = JSON.parse(pm.card) as Card
      const code = processorAnswer(card, amount, account.currency)
      const now = Date.now()
      const row: TxRow = {
        legacy_id: shortId(),
        merchant_id: merchant.merchantId,
        merchant_account_id: account.accountId,
        order_id: transaction.orderId ?? null,
        amount,
        currency: account.currency,
        status: code === '1000' ? 'SUBMITTED_FOR_SETTLEMENT' : 'PROCESSOR_DECLINED',
        payment_method_id: pm.id,
        payment_method_usage: pm.usage,
        card: pm.card,
        processor_code: code,
        processor_message: PROCESSOR_RESPONSES[code] ?? 'Processor Declined',
        created_at: now,
        updated_at: now,
      }
      await env.PEERS_DB.prepare(
        'INSERT INTO braintree_transactions (legacy_id, merchant_id, merchant_account_id, order_id, amount, currency, status, payment_method_id, payment_method_usage, card, processor_code, processor_message, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      )
        .bind(...Object.values(row))
        .run()
      const view = transactionView(row, [])
      if (code !== '1000')
        return gql({ chargePaymentMethod: { transaction: view } }, [
          gqlError(`Payment method was declined. Processor response: ${row.processor_message}`, 'VALIDATION', ['chargePaymentMethod'], { legacyCode: code }),
        ])
      return gql({ chargePaymentMethod: { transaction: view } })
    }
    case 'Transaction': {
      const id = typeof variables.id === 'string' ? variables.id : ''
      const legacy = legacyOf(id, 'transaction')
      const row = legacy ? await getTx(env, merchant.merchantId, legacy) : null
      if (!row) return gql({ node: null }, [gqlError('An object with this ID was not found.', 'NOT_FOUND', ['node'])])
      return gql({ node: await viewTx(env, row) })
    }
    case 'SearchTransactions': {
      const parsed = searchInput.safeParse(input)
      if (!parsed.success) return gql(null, [gqlError('Variable input is invalid', 'VALIDATION', ['search'])])
      const { results } = await env.PEERS_DB.prepare('SELECT * FROM braintree_transactions WHERE merchant_id = ? AND order_id = ? ORDER BY created_at DESC LIMIT 50')
        .bind(merchant.merchantId, parsed.data.orderId.is)
        .all<TxRow>()
      const edges = await Promise.all(results.map(async (row) => ({ node: await viewTx(env, row) })))
      return gql({ search: { transactions: { edges, pageInfo: { hasNextPage: false } } } })
    }
    case 'RefundTransaction': {
      const parsed = refundInput.safeParse(input)
      if (!parsed.success) return gql(null, [gqlError('Variable input is invalid', 'VALIDATION', ['refundTransaction'])])
      const legacy = legacyOf(parsed.data.transactionId, 'transaction')
      const row = legacy ? await getTx(env, merchant.merchantId, legacy) : null
      if (!row) return gql({ refundTransaction: null }, [gqlError('An object with this ID was not found.', 'NOT_FOUND', ['refundTransaction'])])
      if (row.status !== 'SETTLED' && row.status !== 'SETTLING')
        return gql({ refundTransaction: null }, [gqlError('Cannot refund transaction unless it is settled.', 'VALIDATION', ['refundTransaction'], { legacyCode: '91506' })])
      const refunded = (await refundsOf(env, row.legacy_id)).reduce((sum, r) => sum + r.amount, 0)
      if (refunded >= row.amount) return gql({ refundTransaction: null }, [gqlError('Transaction has already been fully refunded.', 'VALIDATION', ['refundTransaction'], { legacyCode: '91512' })])
      const amount = parsed.data.refund?.amount ? minorOf(parsed.data.refund.amount, row.currency) : row.amount - refunded
      if (amount === null || amount <= 0) return gql({ refundTransaction: null }, [gqlError('Amount is an invalid format.', 'VALIDATION', ['refundTransaction'], { legacyCode: '81503' })])
      if (refunded + amount > row.amount) return gql({ refundTransaction: null }, [gqlError('Refund amount is too large.', 'VALIDATION', ['refundTransaction'], { legacyCode: '91521' })])
      const refund: RefundRow = {
        legacy_id: shortId(),
        merchant_id: merchant.merchantId,
        transaction_legacy_id: row.legacy_id,
        order_id: parsed.data.refund?.orderId ?? row.order_id,
        amount,
        currency: row.currency,
        status: 'SUBMITTED_FOR_SETTLEMENT',
        created_at: Date.now(),
      }
      await env.PEERS_DB.prepare('INSERT INTO braintree_refunds (legacy_id, merchant_id, transaction_legacy_id, order_id, amount, currency, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)')
        .bind(...Object.values(refund))
        .run()
      return gql({ refundTransaction: { refund: { ...refundView(refund), refundedTransaction: { id: globalId('transaction', row.legacy_id) } } } })
    }
    case 'ReverseTransaction': {
      const parsed = reverseInput.safeParse(input)
      if (!parsed.success) return gql(null, [gqlError('Variable input is invalid', 'VALIDATION', ['reverseTransaction'])])
      const legacy = legacyOf(parsed.data.transactionId, 'transaction')
      const row = legacy ? await getTx(env, merchant.merchantId, legacy) : null
      if (!row) return gql({ reverseTransaction: null }, [gqlError('An object with this ID was not found.', 'NOT_FOUND', ['reverseTransaction'])])
      if (row.status === 'AUTHORIZED' || row.status === 'SUBMITTED_FOR_SETTLEMENT') {
        await env.PEERS_DB.prepare("UPDATE braintree_transactions SET status = 'VOIDED', updated_at = ? WHERE legacy_id = ?").bind(Date.now(), row.legacy_id).run()
        const voided = (await getTx(env, merchant.merchantId, row.legacy_id))!
        return gql({ reverseTransaction: { reversal: await viewTx(env, voided) } })
      }
      return operate(env, merchant, 'RefundTransaction', { input: { transactionId: parsed.data.transactionId } }, c).then((r) =>
        r.data?.refundTransaction
          ? gql({ reverseTransaction: { reversal: (r.data.refundTransaction as { refund: unknown }).refund } })
          : gql(
              { reverseTransaction: null },
              r.errors?.map((e) => ({ ...e, path: ['reverseTransaction'] })),
            ),
      )
    }
    default:
      return gql(null, [gqlError(`Unknown operation${op ? ` ${op}` : ''}: this peer answers only the operations Coursefront sends.`, 'VALIDATION')])
  }
}

const merchantByAuth = (header: string | undefined) => {
  const m = /^Basic\s+(.+)$/i.exec(header ?? '')
  if (!m) return null
  let decoded = ''
  try {
    decoded = atob(m[1]!.trim())
  } catch {
    return null
  }
  const i = decoded.indexOf(':')
  return MERCHANTS.find((x) => x.publicKey === decoded.slice(0, i) && x.privateKey === decoded.slice(i + 1)) ?? null
}

const pageOrigin = (env: PeersEnv) => `http://${env.PEER_PAY_PAGE_HOST}:${PAGE_PORT}`

export const braintreePeer = new Hono<PeersHono>()

braintreePeer.post('/graphql', async (c) => {
  if ((await setting(c.env, 'down')) === '1') return c.text('Service Unavailable', 503)
  const merchant = merchantByAuth(c.req.header('authorization'))
  if (!merchant) return c.json(gql(null, [gqlError('Authentication credentials are invalid', 'AUTHENTICATION')]), 401)
  if (!c.req.header('braintree-version')) return c.json(gql(null, [gqlError('Braintree-Version header is required', 'VALIDATION')]), 400)
  const parsed = body.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json(gql(null, [gqlError('Request body must be JSON with a query', 'VALIDATION')]), 400)
  const op = parsed.data.operationName ?? operationName(parsed.data.query) ?? ''
  return c.json(await operate(c.env, merchant, op, parsed.data.variables ?? {}, { pageOrigin: pageOrigin(c.env) }))
})

// Client API (the mini SDK's tokenization): authorised by a client token's fingerprint.
const tokenizeInput = z.object({
  authorizationFingerprint: z.string().min(1),
  creditCard: z.object({ number: z.string(), expirationDate: z.string(), cvv: z.string() }),
})
/** "MM/YY", "MM/YYYY", "MM / YY". */
function expiryOf(text: string) {
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(text)
  if (!m) return null
  const month = Number(m[1])
  const year = m[2]!.length === 2 ? 2000 + Number(m[2]) : Number(m[2])
  return month >= 1 && month <= 12 ? { expMonth: month, expYear: year } : null
}
export function cardError(input: { number: string; expirationDate: string; cvv: string }): { field: string; message: string } | null {
  const number = input.number.replace(/[\s-]/g, '')
  if (!/^\d{12,19}$/.test(number) || !luhn(number)) return { field: 'number', message: 'Credit card number is invalid.' }
  if (!expiryOf(input.expirationDate)) return { field: 'expirationDate', message: 'Expiration date is invalid.' }
  if (!/^\d{3,4}$/.test(input.cvv)) return { field: 'cvv', message: 'CVV must be 3 or 4 digits.' }
  return null
}
export async function tokenizeCard(env: PeersEnv, merchantId: string, input: { number: string; expirationDate: string; cvv: string }) {
  const number = input.number.replace(/[\s-]/g, '')
  const card: Card = { number, ...expiryOf(input.expirationDate)! }
  const nonce = await createPaymentMethod(env, merchantId, 'SINGLE_USE', card)
  const d = cardDetails(card)
  return {
    nonce,
    details: {
      lastFour: d.last4,
      lastTwo: d.last4.slice(-2),
      cardType: d.brandCode === 'AMERICAN_EXPRESS' ? 'American Express' : d.brandCode === 'MASTERCARD' ? 'MasterCard' : d.brandCode === 'VISA' ? 'Visa' : 'Unknown',
      expirationMonth: d.expirationMonth,
      expirationYear: d.expirationYear,
      bin: d.bin,
    },
    type: 'CreditCard',
    description: `ending in ${d.last4.slice(-2)}`,
  }
}

braintreePeer.post('/hosted/client_api/v1/payment_methods/credit_cards', async (c) => {
  if ((await setting(c.env, 'down')) === '1') return c.text('Service Unavailable', 503)
  const parsed = tokenizeInput.safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: { message: 'Invalid request' } }, 422)
  const token = await c.env.PEERS_DB.prepare('SELECT * FROM braintree_client_tokens WHERE fingerprint = ?').bind(parsed.data.authorizationFingerprint).first<{ merchant_id: string }>()
  if (!token) return c.json({ error: { message: 'Authorization fingerprint is invalid' } }, 401)
  const problem = cardError(parsed.data.creditCard)
  if (problem) return c.json({ error: { message: 'Credit card is invalid' }, fieldErrors: [{ field: 'creditCard', fieldErrors: [{ field: problem.field, message: problem.message }] }] }, 422)
  return c.json({ creditCards: [await tokenizeCard(c.env, token.merchant_id, parsed.data.creditCard)] })
})

// The mini SDK (same names as Braintree's web SDK: braintree.client.create, braintree.hostedFields.create,
// instance.tokenize(), instance.teardown()). Each field is an iframe from this origin; on tokenize the
// number frame reads its sibling frames (same origin) and calls the client API, so the card never
// touches the merchant's page.
const CLIENT_JS = `(function(){var bt=window.braintree=window.braintree||{};
function parse(a){try{return JSON.parse(atob(a))}catch(e){return null}}
bt.client={create:function(o){return new Promise(function(res,rej){var t=parse(o&&o.authorization||'');
if(!t||!t.authorizationFingerprint){var e=new Error('Authorization is invalid');e.code='CLIENT_INVALID_AUTHORIZATION';return rej(e)}
res({getConfiguration:function(){return {authorization:o.authorization,gatewayConfiguration:{clientApiUrl:t.clientApiUrl,assetsUrl:t.assetsUrl,merchantId:t.merchantId},authorizationFingerprint:t.authorizationFingerprint}},teardown:function(){return Promise.resolve()}})})}};})();
`
const HOSTED_FIELDS_JS = `(function(){var bt=window.braintree=window.braintree||{};
var KINDS={number:'number',expirationDate:'expirationDate',cvv:'cvv'};
bt.hostedFields={create:function(o){return new Promise(function(res,rej){
var conf=o&&o.client&&o.client.getConfiguration&&o.client.getConfiguration();if(!conf){var e=new Error('A client is required');e.code='INSTANTIATION_OPTION_REQUIRED';return rej(e)}
var assets=conf.gatewayConfiguration.assetsUrl,origin=new URL(assets).origin,id='bt'+Math.random().toString(36).slice(2),frames=[],pending={},seq=0;
var fields=o.fields||{};
for(var k in KINDS){var f=fields[k];if(!f)continue;var el=typeof f.container==='string'?document.querySelector(f.container):f.container;
if(!el){var e2=new Error('Container not found');e2.code='HOSTED_FIELDS_INVALID_FIELD_SELECTOR';return rej(e2)}
var fr=document.createElement('iframe');fr.name='braintree-hosted-field-'+k+'-'+id;fr.title=f.title||k;fr.setAttribute('frameborder','0');fr.style.width='100%';fr.style.height='2.5rem';fr.style.border='0';
fr.src=assets+'/field?type='+k+'&group='+id+'&placeholder='+encodeURIComponent(f.placeholder||'')+'&parent='+encodeURIComponent(location.origin)+'&lang='+encodeURIComponent(document.documentElement.lang||'en');
el.appendChild(fr);frames.push(fr)}
function onMsg(ev){if(ev.origin!==origin||!ev.data||ev.data.group!==id)return;var p=pending[ev.data.seq];if(!p)return;delete pending[ev.data.seq];
if(ev.data.ok)p.res({nonce:ev.data.nonce,details:ev.data.details,type:'CreditCard'});else{var e=new Error(ev.data.message||'Tokenization failed');e.code=ev.data.code;e.details={invalidFieldKeys:ev.data.invalid||[]};p.rej(e)}}
window.addEventListener('message',onMsg);
var inst={tokenize:function(){return new Promise(function(r,j){var n=frames.filter(function(x){return x.name.indexOf('-number-')>0})[0];if(!n){var e=new Error('No number field');e.code='HOSTED_FIELDS_FIELDS_EMPTY';return j(e)}
var s=++seq;pending[s]={res:r,rej:j};n.contentWindow.postMessage({group:id,seq:s,action:'tokenize',fingerprint:conf.authorizationFingerprint,clientApiUrl:conf.gatewayConfiguration.clientApiUrl},origin)})},
teardown:function(){window.removeEventListener('message',onMsg);frames.forEach(function(x){x.remove()});frames=[];return Promise.resolve()}};
var loaded=0;if(!frames.length)return res(inst);frames.forEach(function(x){x.addEventListener('load',function(){if(++loaded===frames.length)res(inst)})})})}};})();
`
const FIELD_LABELS = { number: 'Card number', expirationDate: 'Expiration date (MM/YY)', cvv: 'CVV' } as const
const FIELD_LABELS_PL: Record<keyof typeof FIELD_LABELS, string> = { number: 'Numer karty', expirationDate: 'Data ważności (MM/RR)', cvv: 'Kod CVV' }

braintreePeer.get('/hosted/js/client.js', (c) => c.body(CLIENT_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }))
braintreePeer.get('/hosted/js/hosted-fields.js', (c) => c.body(HOSTED_FIELDS_JS, 200, { 'Content-Type': 'text/javascript; charset=utf-8', 'Cache-Control': 'no-store' }))

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`)
braintreePeer.get('/hosted/field', (c) => {
  const type = c.req.query('type') as keyof typeof FIELD_LABELS
  if (!(type in FIELD_LABELS)) return c.text('Unknown field', 400)
  const group = (c.req.query('group') ?? '').replace(/[^\w]/g, '')
  // Only an origin: it is written into the frame's script and is the one window its answers go to.
  let parent = ''
  try {
    parent = new URL(c.req.query('parent') ?? '').origin
  } catch {
    return c.text('Unknown parent', 400)
  }
  if (!/^https?:\/\/[\w.-]+(?::\d+)?$/.test(parent)) return c.text('Unknown parent', 400)
  const placeholder = c.req.query('placeholder') ?? ''
  const labels = (c.req.query('lang') ?? '').toLowerCase().startsWith('pl') ? FIELD_LABELS_PL : FIELD_LABELS
  const inputMode = 'numeric'
  const autocomplete = type === 'number' ? 'cc-number' : type === 'cvv' ? 'cc-csc' : 'cc-exp'
  // The number frame tokenizes: it reads the sibling frames of its group (same origin) and calls the client API.
  const script =
    type === 'number'
      ? `<script>(function(){var parentOrigin=${JSON.stringify(
          parent,
        )};window.addEventListener('message',function(ev){if(ev.origin!==parentOrigin||!ev.data||ev.data.action!=='tokenize')return;var d=ev.data;
function reply(m){ev.source.postMessage(Object.assign({group:d.group,seq:d.seq},m),parentOrigin)}
function val(k){try{var f=parent.frames['braintree-hosted-field-'+k+'-'+d.group];return f.document.getElementById('f').value}catch(e){return ''}}
var card={number:document.getElementById('f').value,expirationDate:val('expirationDate'),cvv:val('cvv')};
var empty=Object.keys(card).filter(function(k){return !card[k].trim()});if(empty.length===3)return reply({ok:false,code:'HOSTED_FIELDS_FIELDS_EMPTY',invalid:empty,message:'All fields are empty.'});
fetch(d.clientApiUrl+'/v1/payment_methods/credit_cards',{method:'POST',headers:{'Content-Type':'application/json'},body:JSON.stringify({authorizationFingerprint:d.fingerprint,creditCard:card})})
.then(function(r){return r.json().then(function(j){return {status:r.status,j:j}})}).then(function(x){
if(x.status===200)return reply({ok:true,nonce:x.j.creditCards[0].nonce,details:x.j.creditCards[0].details});
if(x.status===422){var fe=(x.j.fieldErrors&&x.j.fieldErrors[0]&&x.j.fieldErrors[0].fieldErrors)||[];return reply({ok:false,code:'HOSTED_FIELDS_FIELDS_INVALID',invalid:fe.map(function(e){return e.field}),message:'Some payment input fields are invalid.'})}
reply({ok:false,code:'HOSTED_FIELDS_FAILED_TOKENIZATION',message:'Tokenization failed.'})}).catch(function(){reply({ok:false,code:'HOSTED_FIELDS_TOKENIZATION_NETWORK_ERROR',message:'Network error.'})})})})();</script>`
      : ''
  return c.html(`<!doctype html><html lang="${labels === FIELD_LABELS_PL ? 'pl' : 'en'}"><head><meta charset="utf-8"><title>${
    labels[type]
  }</title><style>body{margin:0}input{box-sizing:border-box;width:100%;height:2.4rem;font:inherit;font-size:1rem;padding:.3rem .5rem;border:1px solid #888;border-radius:4px}</style></head>
<body data-group="${escapeHtml(group)}"><input id="f" aria-label="${labels[type]}" inputmode="${inputMode}" autocomplete="${autocomplete}" placeholder="${escapeHtml(
    placeholder,
  )}">${script}</body></html>`)
})

/** Control for tests and the harness. */
export const braintreeControl = new Hono<PeersHono>()

braintreeControl.post('/reset', async (c) => {
  await c.env.PEERS_DB.batch(
    ['braintree_client_tokens', 'braintree_payment_methods', 'braintree_transactions', 'braintree_refunds', 'braintree_notifications', 'braintree_settings'].map((t) =>
      c.env.PEERS_DB.prepare(`DELETE FROM ${t}`),
    ),
  )
  return c.json({ ok: true })
})

/** {down: true}: /graphql and the client API answer 503 until cleared. */
braintreeControl.post('/fault', async (c) => {
  const parsed = z.object({ down: z.boolean() }).safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: 'Expected {down: boolean}' }, 400)
  await setSetting(c.env, 'down', parsed.data.down ? '1' : null)
  return c.json({ down: parsed.data.down })
})

/** A single-use nonce for a card, as the hosted fields would give (the merchant defaults to the development one). */
braintreeControl.post('/nonce', async (c) => {
  const parsed = z.object({ number: z.string(), expiry: z.string(), cvv: z.string(), merchantId: z.string().optional() }).safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: 'Expected {number, expiry, cvv}' }, 400)
  const merchant = MERCHANTS.find((m) => m.merchantId === (parsed.data.merchantId ?? BRAINTREE_DEV.merchantId))
  if (!merchant) return c.json({ error: 'Unknown merchant' }, 404)
  const card = { number: parsed.data.number, expirationDate: parsed.data.expiry, cvv: parsed.data.cvv }
  const problem = cardError(card)
  if (problem) return c.json({ error: problem.message, field: problem.field }, 422)
  return c.json(await tokenizeCard(c.env, merchant.merchantId, card))
})

/** Where Braintree posts this merchant's webhooks (the Control Panel's Webhooks setting). */
braintreeControl.post('/webhook-url', async (c) => {
  const parsed = z.object({ merchantId: z.string().default(BRAINTREE_DEV.merchantId), url: z.string().url().nullable() }).safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: 'Expected {merchantId?, url}' }, 400)
  await setSetting(c.env, `webhook:${parsed.data.merchantId}`, parsed.data.url)
  return c.json({ ok: true })
})

/** The settlement batch: SUBMITTED_FOR_SETTLEMENT → SETTLED, and the `transaction_settled` webhook. */
braintreeControl.post('/settle', async (c) => {
  const parsed = z.object({ transactionId: z.string() }).safeParse(await c.req.json().catch(() => null))
  if (!parsed.success) return c.json({ error: 'Expected {transactionId}' }, 400)
  const legacy = legacyOf(parsed.data.transactionId, 'transaction') ?? parsed.data.transactionId
  const row = await c.env.PEERS_DB.prepare('SELECT * FROM braintree_transactions WHERE legacy_id = ?').bind(legacy).first<TxRow>()
  if (!row) return c.json({ error: 'Unknown transaction' }, 404)
  if (row.status !== 'SUBMITTED_FOR_SETTLEMENT' && row.status !== 'SETTLING') return c.json({ error: `Cannot settle a ${row.status} transaction` }, 409)
  await c.env.PEERS_DB.prepare("UPDATE braintree_transactions SET status = 'SETTLED', updated_at = ? WHERE legacy_id = ?").bind(Date.now(), legacy).run()
  const settled = (await c.env.PEERS_DB.prepare('SELECT * FROM braintree_transactions WHERE legacy_id = ?').bind(legacy).first<TxRow>())!
  await notify(c.env, MERCHANTS.find((m) => m.merchantId === row.merchant_id)!, 'transaction_settled', settled)
  return c.json({ id: globalId('transaction', legacy), status: 'SETTLED' })
})

/** Webhooks sent (or recorded without a destination), oldest first: ?orderId= or ?transactionId=. */
braintreeControl.get('/notifications', async (c) => {
  const orderId = c.req.query('orderId')
  const transactionId = c.req.query('transactionId')
  const legacy = transactionId ? legacyOf(transactionId, 'transaction') ?? transactionId : null
  const stmt = orderId
    ? c.env.PEERS_DB.prepare('SELECT * FROM braintree_notifications WHERE order_id = ? ORDER BY created_at').bind(orderId)
    : legacy
    ? c.env.PEERS_DB.prepare('SELECT * FROM braintree_notifications WHERE transaction_legacy_id = ? ORDER BY created_at').bind(legacy)
    : c.env.PEERS_DB.prepare('SELECT * FROM braintree_notifications ORDER BY created_at')
  const { results } = await stmt.all<{ kind: string; url: string | null; body: string; delivery_status: number | null; transaction_legacy_id: string | null; order_id: string | null }>()
  return c.json({
    notifications: results.map((n) => ({
      kind: n.kind,
      url: n.url,
      orderId: n.order_id,
      transactionId: n.transaction_legacy_id ? globalId('transaction', n.transaction_legacy_id) : null,
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: n.body,
      deliveryStatus: n.delivery_status,
    })),
  })
})

/** A signed `check` notification (the Control Panel's "Check URL" button), delivered to the configured URL. */
braintreeControl.post('/check', async (c) => {
  const merchant = BRAINTREE_DEV
  await notify(c.env, merchant, 'check', null)
  return c.json({ ok: true })
})
