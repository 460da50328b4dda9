// The Braintree peer: GraphQL auth and errors, client tokens and the client API's tokenization,
// charge / vault / search / node / refund / reverse by operation name, the sandbox's declines,
// webhook signing, the mini SDK and the hosted field pages, and fault injection.
import { createHash, createHmac } from 'node:crypto'
import { env } from 'cloudflare:workers'
import { beforeEach, describe, expect, it } from 'vitest'
import { peersApp } from './app.ts'
import { BRAINTREE_DEV, BRAINTREE_STRANGER, globalId } from './braintree.ts'
import type { PeersEnv } from './env.ts'

const peersEnv = env as unknown as PeersEnv
type Json = Record<string, any>
type Account = { publicKey: string; privateKey: string }

function graphql(query: string, variables: Json = {}, account: Account = BRAINTREE_DEV, headers: Record<string, string> = {}) {
  return peersApp.request(
    'http://dev-peers.internal/braintree/graphql',
    {
      method: 'POST',
      headers: { Authorization: `Basic ${btoa(`${account.publicKey}:${account.privateKey}`)}`, 'Braintree-Version': '2019-01-01', 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    },
    peersEnv,
  )
}
const gql = async (query: string, variables: Json = {}, account: Account = BRAINTREE_DEV) => (await (await graphql(query, variables, account)).json()) as Json
function control(path: string, json?: unknown) {
  return peersApp.request(
    `http://dev-peers.internal/_peer/braintree${path}`,
    json === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) },
    peersEnv,
  )
}
const nonce = async (number: string, merchantId: string = BRAINTREE_DEV.merchantId) =>
  ((await (await control('/nonce', { number, expiry: '12/30', cvv: '123', merchantId })).json()) as Json).nonce as string

const CHARGE = 'mutation ChargePaymentMethod($input: ChargePaymentMethodInput!) { chargePaymentMethod(input: $input) { transaction { id status } } }'
const charge = (paymentMethodId: string, amount: string, orderId: string, account: Account = BRAINTREE_DEV, merchantAccountId?: string) =>
  gql(CHARGE, { input: { paymentMethodId, transaction: { amount, orderId, ...(merchantAccountId ? { merchantAccountId } : {}) } } }, account)

describe('Braintree peer', () => {
  beforeEach(async () => {
    await control('/reset', {})
  })

  it('refuses unknown keys (401, AUTHENTICATION), a missing Braintree-Version, and operations it does not know', async () => {
    const bad = await graphql('query Ping { ping }', {}, { publicKey: BRAINTREE_DEV.publicKey, privateKey: 'nope' })
    expect(bad.status).toBe(401)
    expect(((await bad.json()) as Json).errors[0].extensions.errorClass).toBe('AUTHENTICATION')
    const noVersion = await graphql('query Ping { ping }', {}, BRAINTREE_DEV, { 'Braintree-Version': '' })
    expect(noVersion.status).toBe(400)
    expect(await gql('query Ping { ping }')).toMatchObject({ data: { ping: 'pong' } })
    expect((await gql('query Whatever { viewer { id } }')).errors[0].extensions.errorClass).toBe('VALIDATION')
  })

  it('tokenizes a card through the client API with a client token’s fingerprint; refuses a bad card and an unknown fingerprint', async () => {
    const created = await gql('mutation CreateClientToken($input: CreateClientTokenInput) { createClientToken(input: $input) { clientToken } }', {
      input: { clientToken: { merchantAccountId: BRAINTREE_DEV.merchantAccounts.EUR } },
    })
    const token = JSON.parse(atob(created.data.createClientToken.clientToken)) as Json
    expect(token.clientApiUrl).toBe('http://pay.localhost:8787/braintree/hosted/client_api')
    const tokenize = (fingerprint: string, number: string) =>
      peersApp.request(
        'http://dev-peers.internal/braintree/hosted/client_api/v1/payment_methods/credit_cards',
        {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ authorizationFingerprint: fingerprint, creditCard: { number, expirationDate: '11/31', cvv: '123' } }),
        },
        peersEnv,
      )
    const ok = await tokenize(token.authorizationFingerprint, '4111 1111 1111 1111')
    expect(ok.status).toBe(200)
    expect(((await ok.json()) as Json).creditCards[0]).toMatchObject({
      nonce: expect.stringMatching(/^tokencc_/),
      details: { lastFour: '1111', cardType: 'Visa', expirationMonth: '11', expirationYear: '2031' },
    })
    expect((await tokenize(token.authorizationFingerprint, '4111111111111112')).status).toBe(422)
    expect((await tokenize('unknown', '4111111111111111')).status).toBe(401)
  })

  it('charges a nonce once (submitted for settlement, amount as a decimal in the merchant account’s currency), finds it by node id and by orderId', async () => {
    const pm = await nonce('4111111111111111')
    const made = await charge(pm, '49.90', 'order-1', BRAINTREE_DEV, BRAINTREE_DEV.merchantAccounts.GBP)
    expect(made.data.chargePaymentMethod.transaction.status).toBe('SUBMITTED_FOR_SETTLEMENT')
    const id = made.data.chargePaymentMethod.transaction.id as string
    expect((await charge(pm, '49.90', 'order-1')).errors[0].extensions.legacyCode).toBe('91565')
    const node = await gql('query Transaction($id: ID!) { node(id: $id) { ... on Transaction { id } } }', { id })
    expect(node.data.node).toMatchObject({ id, orderId: 'order-1', amount: { value: '49.90', currencyCode: 'GBP' }, paymentMethodSnapshot: { last4: '1111', brandCode: 'VISA' } })
    const search = await gql('query SearchTransactions($input: TransactionSearchInput!) { search { transactions(input: $input) { edges { node { id } } } } }', {
      input: { orderId: { is: 'order-1' } },
    })
    expect(search.data.search.transactions.edges.map((e: Json) => e.node.id)).toEqual([id])
    expect((await charge(await nonce('4111111111111111'), '1.999', 'order-2')).errors[0].extensions.legacyCode).toBe('81503')
  })

  it('declines as the sandbox does: the declining test card (2000) and amounts 2000.00–2999.99 (their code)', async () => {
    const declined = await charge(await nonce('4000111111111115'), '10.00', 'order-d')
    expect(declined.data.chargePaymentMethod.transaction.status).toBe('PROCESSOR_DECLINED')
    expect(declined.errors[0].extensions).toMatchObject({ errorClass: 'VALIDATION', legacyCode: '2000' })
    const funds = await charge(await nonce('4111111111111111'), '2001.00', 'order-f')
    const node = await gql('query Transaction($id: ID!) { node(id: $id) { id } }', { id: funds.data.chargePaymentMethod.transaction.id })
    expect(node.data.node.statusHistory[0].processorResponse).toEqual({ legacyCode: '2001', message: 'Insufficient Funds' })
  })

  it('vaults a verified card (reusable, not single-use) and refuses to vault a declining one', async () => {
    const VAULT = 'mutation VaultPaymentMethod($input: VaultPaymentMethodInput!) { vaultPaymentMethod(input: $input) { paymentMethod { id } } }'
    const vaulted = await gql(VAULT, { input: { paymentMethodId: await nonce('5555555555554444') } })
    const id = vaulted.data.vaultPaymentMethod.paymentMethod.id as string
    expect(vaulted.data.vaultPaymentMethod.paymentMethod).toMatchObject({ usage: 'MULTI_USE', details: { brandCode: 'MASTERCARD', last4: '4444' } })
    expect((await charge(id, '10.00', 'r-1')).data.chargePaymentMethod.transaction.status).toBe('SUBMITTED_FOR_SETTLEMENT')
    expect((await charge(id, '10.00', 'r-2')).data.chargePaymentMethod.transaction.status).toBe('SUBMITTED_FOR_SETTLEMENT')
    const refused = await gql(VAULT, { input: { paymentMethodId: await nonce('4000111111111115') } })
    expect(refused.data.vaultPaymentMethod).toMatchObject({ paymentMethod: null, verification: { status: 'PROCESSOR_DECLINED' } })
  })

  it('refunds only a settled sale and never more than it; reverses an unsettled one by voiding it', async () => {
    const REFUND = 'mutation RefundTransaction($input: RefundTransactionInput!) { refundTransaction(input: $input) { refund { id } } }'
    const REVERSE = 'mutation ReverseTransaction($input: ReverseTransactionInput!) { reverseTransaction(input: $input) { reversal { __typename } } }'
    const id = (await charge(await nonce('4111111111111111'), '30.00', 'o-r')).data.chargePaymentMethod.transaction.id as string
    expect((await gql(REFUND, { input: { transactionId: id } })).errors[0].extensions.legacyCode).toBe('91506')
    expect((await control('/settle', { transactionId: id })).status).toBe(200)
    expect((await gql(REFUND, { input: { transactionId: id, refund: { amount: '10.00', orderId: 'refund-a' } } })).data.refundTransaction.refund).toMatchObject({
      orderId: 'refund-a',
      amount: { value: '10.00' },
    })
    expect((await gql(REFUND, { input: { transactionId: id, refund: { amount: '25.00' } } })).errors[0].extensions.legacyCode).toBe('91521')
    expect((await gql(REFUND, { input: { transactionId: id } })).data.refundTransaction.refund.amount.value).toBe('20.00')
    expect((await gql(REFUND, { input: { transactionId: id } })).errors[0].extensions.legacyCode).toBe('91512')
    const other = (await charge(await nonce('4111111111111111'), '5.00', 'o-v')).data.chargePaymentMethod.transaction.id as string
    expect((await gql(REVERSE, { input: { transactionId: other } })).data.reverseTransaction.reversal).toMatchObject({ __typename: 'Transaction', status: 'VOIDED' })
  })

  it('another account sees nothing: node, search, refund, and the first account’s nonces', async () => {
    const id = (await charge(await nonce('4111111111111111'), '12.00', 'shared-order')).data.chargePaymentMethod.transaction.id as string
    const node = await gql('query Transaction($id: ID!) { node(id: $id) { id } }', { id }, BRAINTREE_STRANGER)
    expect(node).toMatchObject({ data: { node: null }, errors: [{ extensions: { errorClass: 'NOT_FOUND' } }] })
    const search = await gql(
      'query SearchTransactions($input: TransactionSearchInput!) { search { transactions(input: $input) { edges { node { id } } } } }',
      { input: { orderId: { is: 'shared-order' } } },
      BRAINTREE_STRANGER,
    )
    expect(search.data.search.transactions.edges).toEqual([])
    expect((await charge(await nonce('4111111111111111'), '1.00', 'x', BRAINTREE_STRANGER)).errors[0].extensions.legacyCode).toBe('91565')
  })

  it('settling sends a webhook signed like Braintree’s: publicKey|HMAC-SHA1(SHA1(privateKey), payload), payload base64 XML', async () => {
    const received: { body: string; type: string | null }[] = []
    const app = {
      fetch: async (input: RequestInfo, init?: RequestInit) => {
        const r = new Request(input, init)
        received.push({ body: new TextDecoder().decode(await r.arrayBuffer()), type: r.headers.get('content-type') })
        return new Response(null, { status: 200 })
      },
    } as unknown as Fetcher
    await control('/webhook-url', { url: 'http://school.localhost/payments/braintree/i/notify' })
    const id = (await charge(await nonce('4111111111111111'), '19.99', 'ord-w')).data.chargePaymentMethod.transaction.id as string
    const res = await peersApp.request(
      'http://dev-peers.internal/_peer/braintree/settle',
      { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ transactionId: id }) },
      { ...peersEnv, APP: app },
    )
    expect(res.status).toBe(200)
    expect(received).toHaveLength(1)
    expect(received[0]!.type).toBe('application/x-www-form-urlencoded')
    const form = new URLSearchParams(received[0]!.body)
    const payload = form.get('bt_payload')!
    const key = createHash('sha1').update(BRAINTREE_DEV.privateKey).digest()
    expect(form.get('bt_signature')).toBe(`${BRAINTREE_DEV.publicKey}|${createHmac('sha1', key).update(payload).digest('hex')}`)
    const xml = atob(payload.replace(/\n/g, ''))
    expect(xml).toContain('<kind>transaction_settled</kind>')
    expect(xml).toContain(`<id>${atob(id + '='.repeat((4 - (id.length % 4)) % 4)).slice('transaction_'.length)}</id>`)
    expect(xml).toContain('<amount>19.99</amount>')
    const listed = (await (await control('/notifications?orderId=ord-w')).json()) as Json
    expect(listed.notifications).toMatchObject([{ kind: 'transaction_settled', transactionId: id, deliveryStatus: 200 }])
    expect(globalId('transaction', 'abc')).toBe(btoa('transaction_abc').replace(/=+$/, ''))
  })

  it('serves the mini SDK and field pages; is down (503) when told', async () => {
    const js = await peersApp.request('http://dev-peers.internal/braintree/hosted/js/hosted-fields.js', {}, peersEnv)
    expect(js.headers.get('content-type')).toContain('javascript')
    expect(await js.text()).toContain('hostedFields')
    const field = await peersApp.request('http://dev-peers.internal/braintree/hosted/field?type=number&group=g1&parent=http%3A%2F%2Fschool.localhost%3A8787', {}, peersEnv)
    const html = await field.text()
    expect(html).toContain('aria-label="Card number"')
    expect(html).toContain('autocomplete="cc-number"')
    expect(html).toContain('"http://school.localhost:8787"')
    const pl = await (await peersApp.request('http://dev-peers.internal/braintree/hosted/field?type=cvv&group=g1&parent=http%3A%2F%2Fschool.localhost&lang=pl', {}, peersEnv)).text()
    expect(pl).toContain('aria-label="Kod CVV"')
    expect((await peersApp.request('http://dev-peers.internal/braintree/hosted/field?type=number&group=g1&parent=javascript%3Aalert(1)', {}, peersEnv)).status).toBe(400)
    await control('/fault', { down: true })
    expect((await graphql('query Ping { ping }')).status).toBe(503)
    await control('/fault', { down: false })
    expect((await graphql('query Ping { ping }')).status).toBe(200)
  })
})
