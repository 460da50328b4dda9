// Braintree's GraphQL API (developer.paypal.com/braintree/graphql, "Making API calls"): POST
// {base}/graphql with Basic base64(publicKey:privateKey), `Braintree-Version: 2019-01-01` and JSON
// {query, variables}; failures in `errors[]` with `extensions.errorClass` (AUTHENTICATION,
// AUTHORIZATION, VALIDATION, NOT_FOUND, INTERNAL, …) and, for gateway validations, `legacyCode`.
// Only the operations Coursefront uses, each named (the dev peer recognises them by name).
import { z } from 'zod'
import type { ProviderContext } from '../provider-module.server.ts'

export const BRAINTREE_PRODUCTION = 'https://payments.braintree-api.com'
export const BRAINTREE_SANDBOX = 'https://payments.sandbox.braintree-api.com'
export const BRAINTREE_VERSION = '2019-01-01'
const TIMEOUT_MS = 12_000

export type BraintreeCredentials = { merchantId: string; publicKey: string; privateKey: string; merchantAccountId: string; sandbox: boolean }

const gqlError = z.object({ message: z.string(), extensions: z.object({ errorClass: z.string().optional(), legacyCode: z.string().nullish() }).passthrough().optional() }).passthrough()
const envelope = z.object({ data: z.record(z.unknown()).nullish(), errors: z.array(gqlError).nullish() })
export type GraphqlError = z.infer<typeof gqlError>

export type GraphqlResult<T> =
  | { ok: true; data: T; errors: GraphqlError[] }
  /** 'unavailable': no answer, 5xx, or an unreadable body; 'auth': the keys were refused; 'error': answered with errors only. */
  | { ok: false; kind: 'unavailable' | 'auth' | 'error'; errors: GraphqlError[]; data: Record<string, unknown> | null }

export function braintreeClient(ctx: ProviderContext, credentials: BraintreeCredentials) {
  const url = `${ctx.apiBase(BRAINTREE_PRODUCTION, BRAINTREE_SANDBOX, credentials.sandbox)}/graphql`
  const authorization = `Basic ${btoa(`${credentials.publicKey}:${credentials.privateKey}`)}`

  /** One operation. `schema` reads `data` when the answer has it (a declined sale has data and errors). */
  async function call<T>(query: string, variables: Record<string, unknown>, schema: z.ZodType<T>): Promise<GraphqlResult<T>> {
    let res: Response
    try {
      res = await ctx.fetch(url, {
        method: 'POST',
        headers: { Authorization: authorization, 'Braintree-Version': BRAINTREE_VERSION, 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      })
    } catch {
      return { ok: false, kind: 'unavailable', errors: [], data: null }
    }
    if (res.status >= 500 || res.status === 429) return { ok: false, kind: 'unavailable', errors: [], data: null }
    const parsed = envelope.safeParse(await res.json().catch(() => null))
    if (!parsed.success) return { ok: false, kind: res.status === 401 || res.status === 403 ? 'auth' : 'unavailable', errors: [], data: null }
    const errors = parsed.data.errors ?? []
    const errorClass = errors[0]?.extensions?.errorClass
    if (res.status === 401 || res.status === 403 || errorClass === 'AUTHENTICATION' || errorClass === 'AUTHORIZATION') return { ok: false, kind: 'auth', errors, data: null }
    if (errorClass === 'INTERNAL' || errorClass === 'SERVICE_AVAILABILITY') return { ok: false, kind: 'unavailable', errors, data: null }
    const data = parsed.data.data ? schema.safeParse(parsed.data.data) : null
    if (data?.success) return { ok: true, data: data.data, errors }
    return { ok: false, kind: errors.length ? 'error' : 'unavailable', errors, data: parsed.data.data ?? null }
  }
  return { call }
}
export type BraintreeClient = ReturnType<typeof braintreeClient>

// ---- the shapes Coursefront reads ---------------------------------------------------------------

export const money = z.object({ value: z.string(), currencyCode: z.string() })
const processorResponse = z.object({ legacyCode: z.string().nullish(), message: z.string().nullish() }).nullish()
export const refundNode = z.object({ id: z.string(), orderId: z.string().nullish(), status: z.string().nullish(), amount: money.nullish() })
export const transactionNode = z.object({
  id: z.string(),
  legacyId: z.string().nullish(),
  status: z.string(),
  orderId: z.string().nullish(),
  merchantAccountId: z.string().nullish(),
  amount: money,
  paymentMethod: z.object({ id: z.string(), usage: z.string().nullish() }).nullish(),
  paymentMethodSnapshot: z
    .object({ __typename: z.string().optional(), last4: z.string().nullish(), brandCode: z.string().nullish(), expirationMonth: z.string().nullish(), expirationYear: z.string().nullish() })
    .passthrough()
    .nullish(),
  statusHistory: z.array(z.object({ status: z.string().nullish(), processorResponse }).passthrough()).nullish(),
  refunds: z.array(refundNode).nullish(),
})
export type BraintreeTransaction = z.infer<typeof transactionNode>

const TRANSACTION_FIELDS = `
  id legacyId status orderId merchantAccountId
  amount { value currencyCode }
  paymentMethod { id usage }
  paymentMethodSnapshot { __typename ... on CreditCardDetails { last4 brandCode expirationMonth expirationYear } }
  statusHistory { status ... on ProcessorDeclinedEvent { processorResponse { legacyCode message } } }
  refunds { id orderId status amount { value currencyCode } }`

export const Q = {
  ping: 'query Ping { ping }',
  viewer: 'query Viewer { viewer { merchant { id status merchantAccounts { edges { node { id currencyCode status isDefault } } } } } }',
  clientToken: 'mutation CreateClientToken($input: CreateClientTokenInput) { createClientToken(input: $input) { clientToken } }',
  vault: `mutation VaultPaymentMethod($input: VaultPaymentMethodInput!) {
  vaultPaymentMethod(input: $input) {
    paymentMethod { id usage details { __typename ... on CreditCardDetails { last4 brandCode expirationMonth expirationYear } } }
    verification { status processorResponse { legacyCode message } }
  }
}`,
  charge: `mutation ChargePaymentMethod($input: ChargePaymentMethodInput!) { chargePaymentMethod(input: $input) { transaction { ${TRANSACTION_FIELDS} } } }`,
  transaction: `query Transaction($id: ID!) { node(id: $id) { ... on Transaction { ${TRANSACTION_FIELDS} } } }`,
  search: `query SearchTransactions($input: TransactionSearchInput!) { search { transactions(input: $input, first: 50) { edges { node { ${TRANSACTION_FIELDS} } } } } }`,
  refund: 'mutation RefundTransaction($input: RefundTransactionInput!) { refundTransaction(input: $input) { refund { id orderId status amount { value currencyCode } } } }',
  reverse: `mutation ReverseTransaction($input: ReverseTransactionInput!) {
  reverseTransaction(input: $input) { reversal { __typename ... on Transaction { id status } ... on Refund { id orderId status amount { value currencyCode } } } }
}`,
} as const

export const schemas = {
  ping: z.object({ ping: z.string() }),
  viewer: z.object({
    viewer: z.object({
      merchant: z.object({
        id: z.string(),
        merchantAccounts: z
          .object({ edges: z.array(z.object({ node: z.object({ id: z.string(), currencyCode: z.string().nullish(), status: z.string().nullish(), isDefault: z.boolean().nullish() }) })) })
          .nullish(),
      }),
    }),
  }),
  clientToken: z.object({ createClientToken: z.object({ clientToken: z.string() }) }),
  vault: z.object({
    vaultPaymentMethod: z.object({
      paymentMethod: z
        .object({
          id: z.string(),
          usage: z.string().nullish(),
          details: z.object({ last4: z.string().nullish(), brandCode: z.string().nullish(), expirationMonth: z.string().nullish(), expirationYear: z.string().nullish() }).passthrough().nullish(),
        })
        .nullish(),
      verification: z.object({ status: z.string().nullish(), processorResponse }).nullish(),
    }),
  }),
  charge: z.object({ chargePaymentMethod: z.object({ transaction: transactionNode }) }),
  transaction: z.object({ node: transactionNode.nullable() }),
  search: z.object({ search: z.object({ transactions: z.object({ edges: z.array(z.object({ node: transactionNode })) }) }) }),
  refund: z.object({ refundTransaction: z.object({ refund: refundNode }) }),
  reverse: z.object({ reverseTransaction: z.object({ reversal: z.object({ __typename: z.string(), id: z.string(), status: z.string().nullish() }).passthrough() }) }),
}

// ---- money at the boundary: integer minor units here, decimal strings at Braintree -------------

const EXPONENT: Record<string, number> = { PLN: 2, EUR: 2, USD: 2, GBP: 2 }
export function toDecimal(minor: number, currency: string) {
  const e = EXPONENT[currency] ?? 2
  const s = String(Math.abs(Math.trunc(minor))).padStart(e + 1, '0')
  return `${minor < 0 ? '-' : ''}${s.slice(0, s.length - e)}.${s.slice(s.length - e)}`
}
/** "123.00" → 12300 without floating point; null when it is not a plain decimal. */
export function toMinor(decimal: string, currency: string): number | null {
  const e = EXPONENT[currency] ?? 2
  const m = /^(\d+)(?:\.(\d+))?$/.exec(decimal.trim())
  if (!m || (m[2]?.length ?? 0) > e) return null
  return Number(m[1]) * 10 ** e + Number((m[2] ?? '').padEnd(e, '0') || '0')
}
