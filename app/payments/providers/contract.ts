// The contract every provider adapter meets (issue 25), run by each provider's test file against
// its own dev peer (units tier: workerd, DEV_PEERS): `describeProviderContract(harness)`. The cases
// are the money rules of ADR 019/023 seen from the adapter: the notification only triggers, the
// provider's API decides (status, amount, currency); a forged or altered notification is nobody's;
// a provider that is down is 'unavailable', never a success; refunds and stored-card renewals (where
// the provider has them) are idempotent by key. The route-level rules (exactly one grant for 20
// replays, out-of-order, amount-altered) are in tests/integration/provider-notifications.test.ts.
import { describe, expect, it } from 'vitest'
import type { PaymentProvider } from '#app/db/schema.server.ts'
import type { Transaction } from '#app/models/transaction.server.ts'
import { canChargeStoredCard, canRefund, type PaymentAdapter, type StartPaymentInput } from '../provider.server.ts'

/** A notification as the peer sent it (or would have: a worker cannot reach *.localhost). */
export type SentNotification = { url: string; headers: Record<string, string>; body: string }

export type ContractHarness = {
  provider: PaymentProvider
  currency: string
  /** An adapter with credentials the peer accepts. */
  adapter(): PaymentAdapter
  /** The same provider with credentials the peer does not know (another account). */
  strangerAdapter(): PaymentAdapter
  /** Reset the peer's state (beforeEach). */
  reset(): Promise<void>
  /**
   * Play the buyer on the provider's page for the payment `redirectUrl` leads to: pay (with a card
   * that is accepted, or one that is declined). Resolves when the provider has decided. Hosted-fields
   * providers (the sale is made by our server with payWithToken) resolve with the sale's reference
   * when it replaces the one startPayment gave (the card page stores it on the transaction).
   */
  pay(redirectUrl: string, providerRef: string, outcome: 'paid' | 'declined'): Promise<string | void>
  /** The notifications the peer sent for this payment, oldest first. */
  notifications(providerRef: string): Promise<SentNotification[]>
  /** The peer answers its API with 503 until cleared. */
  down(on: boolean): Promise<void>
  /** Providers whose sale is made by our server with a token from hosted fields (Braintree, Paylane): the token the peer's fields would give for a card. */
  hostedFieldsToken?(outcome: 'paid' | 'declined'): Promise<string>
}

let sequence = 0
export function contractTransaction(currency: string, totalAmount = 12_300): Transaction {
  const id = `tx${Date.now().toString(36)}${(++sequence).toString(36)}`
  const now = Date.now()
  return {
    id,
    tenantId: 'tenant-contract',
    hash: `h${id}`,
    userId: null,
    productId: 'product-contract',
    productKind: 'course',
    productTitle: 'Kurs JavaScript — zażółć gęślą jaźń',
    quantity: 1,
    currency,
    unitAmount: totalAmount,
    totalAmount,
    vatAmount: 0,
    feeAmount: 0,
    status: 'pending',
    provider: null,
    integrationId: null,
    providerRef: null,
    buyer: '{}',
    createdAt: now,
    updatedAt: now,
  } as unknown as Transaction
}

export function startInput(tx: Transaction, overrides: Partial<StartPaymentInput> = {}): StartPaymentInput {
  return {
    transaction: tx,
    buyer: { name: 'Zofia Kupująca', email: `buyer-${tx.id}@example.com` },
    origin: 'https://kurs.example.test',
    continueUrl: `https://kurs.example.test/transaction/${tx.hash}/pending`,
    notifyUrl: 'https://kurs.example.test/payments/provider/integration/notify',
    customerIp: '203.0.113.7',
    description: tx.productTitle,
    mode: 'payment',
    locale: 'pl',
    ...overrides,
  }
}

function notificationRequest(n: SentNotification, body = n.body) {
  return new Request(n.url, { method: 'POST', headers: n.headers, body })
}

/** Change the first amount-looking number in the body (a forger's edit): the signature must no longer verify. */
function alterAmount(body: string) {
  const altered = body.replace(/("?(?:amount|totalAmount|value|tr_amount|price)"?\s*[:=]\s*"?)(\d+)/i, (_m, p: string, n: string) => `${p}${Number(n) + 1}`)
  return altered === body ? `${body} ` : altered
}

export function describeProviderContract(h: ContractHarness) {
  describe(`${h.provider}: the provider contract`, () => {
    async function started(overrides: Partial<StartPaymentInput> = {}, amount?: number) {
      const tx = contractTransaction(h.currency, amount)
      const result = await h.adapter().startPayment(startInput(tx, overrides))
      if (!result.ok) throw new Error(`startPayment refused: ${JSON.stringify(result)}`)
      return { tx, ...result }
    }

    it('starts a payment: a page to send the buyer to and the provider’s reference', async () => {
      await h.reset()
      const { redirectUrl, providerRef } = await started()
      expect(() => new URL(redirectUrl)).not.toThrow()
      expect(providerRef.length).toBeGreaterThan(0)
    })

    it('an unpaid payment is not completed at the provider', async () => {
      await h.reset()
      const { providerRef } = await started()
      const state = await h.adapter().confirmPayment(providerRef, null)
      expect(state.ok).toBe(true)
      if (state.ok) expect(state.status).not.toBe('completed')
    })

    it('a paid payment: its notification verifies, and the provider’s API confirms the amount and currency', async () => {
      await h.reset()
      const { tx, providerRef: started_, redirectUrl } = await started()
      const providerRef = (await h.pay(redirectUrl, started_, 'paid')) || started_
      const sent = await h.notifications(providerRef)
      const adapter = h.adapter()
      if (sent.length) {
        const verified = await adapter.readNotification(notificationRequest(sent.at(-1)!), sent.at(-1)!.body)
        expect(verified).not.toBeNull()
        if (verified && verified !== 'ignored') expect(verified.providerRef).toBe(providerRef)
      }
      const state = await adapter.confirmPayment(providerRef, null)
      expect(state).toMatchObject({ ok: true, status: 'completed', amount: tx.totalAmount, currency: tx.currency })
    })

    it('a forged notification (altered amount, or signed by another account) is refused', async () => {
      await h.reset()
      const { providerRef: started_, redirectUrl } = await started()
      const providerRef = (await h.pay(redirectUrl, started_, 'paid')) || started_
      const sent = (await h.notifications(providerRef)).at(-1)
      if (!sent) return expect(h.hostedFieldsToken, 'a provider without notifications makes its sale with hosted fields').toBeTypeOf('function')
      const adapter = h.adapter()
      const altered = alterAmount(sent.body)
      expect(await adapter.readNotification(notificationRequest(sent, altered), altered)).toBeNull()
      expect(await adapter.readNotification(new Request(sent.url, { method: 'POST', body: sent.body }), sent.body)).toBeNull()
      expect(await adapter.readNotification(notificationRequest(sent, 'not a notification'), 'not a notification')).toBeNull()
    })

    it('a declined payment is not completed', async () => {
      await h.reset()
      const { providerRef: started_, redirectUrl } = await started()
      const providerRef = (await h.pay(redirectUrl, started_, 'declined')) || started_
      const state = await h.adapter().confirmPayment(providerRef, null)
      expect(state.ok).toBe(true)
      if (state.ok) expect(state.status === 'completed').toBe(false)
    })

    it('another account’s credentials find nothing, and are refused to start payments', async () => {
      await h.reset()
      const { providerRef } = await started()
      const stranger = h.strangerAdapter()
      const state = await stranger.confirmPayment(providerRef, null)
      expect(state.ok && state.status === 'completed').toBe(false)
      const refused = await stranger.startPayment(startInput(contractTransaction(h.currency)))
      expect(refused.ok).toBe(false)
    })

    it('a provider that is down is unavailable, never a success', async () => {
      await h.reset()
      const { providerRef } = await started()
      await h.down(true)
      try {
        const adapter = h.adapter()
        expect(await adapter.startPayment(startInput(contractTransaction(h.currency)))).toMatchObject({ ok: false, reason: 'unavailable' })
        expect(await adapter.confirmPayment(providerRef, null)).toEqual({ ok: false, reason: 'unavailable' })
      } finally {
        await h.down(false)
      }
    })

    it('refunds a completed sale once, whatever the number of requests (where the provider refunds)', async () => {
      await h.reset()
      const adapter = h.adapter()
      if (!canRefund(adapter)) return
      const { tx, providerRef: started_, redirectUrl } = await started()
      const providerRef = (await h.pay(redirectUrl, started_, 'paid')) || started_
      const input = { providerRef, amount: tx.totalAmount, currency: tx.currency, idempotencyKey: `refund-${tx.id}`, description: `Refund ${tx.hash}` }
      const first = await adapter.refund(input)
      expect(first.ok).toBe(true)
      const again = await adapter.refund(input)
      // The same refund, or refused because nothing is left: never a second refund.
      if (again.ok && first.ok) expect(again.refundRef).toBe(first.refundRef)
      const more = await adapter.refund({ ...input, idempotencyKey: `refund-${tx.id}-again` })
      expect(more.ok).toBe(false)
    })

    it('renews with the card kept at the first sale, once per idempotency key (where the provider keeps cards)', async () => {
      await h.reset()
      const adapter = h.adapter()
      if (!canChargeStoredCard(adapter)) return
      const { tx, providerRef: started_, redirectUrl } = await started({ storeCard: true })
      const providerRef = (await h.pay(redirectUrl, started_, 'paid')) || started_
      const state = await adapter.confirmPayment(providerRef, null)
      if (!state.ok || !state.card) throw new Error(`no card kept: ${JSON.stringify(state)}`)
      const charge = { token: state.card.token, amount: tx.totalAmount, currency: tx.currency, idempotencyKey: `renewal-${tx.id}`, description: tx.productTitle, notifyUrl: 'https://kurs.example.test/payments/p/i/notify', buyer: { email: 'buyer@example.com', name: 'Zofia' } }
      const first = await adapter.chargeStoredCard(charge)
      expect(first).toMatchObject({ ok: true, amount: tx.totalAmount, currency: tx.currency })
      const repeated = await adapter.chargeStoredCard(charge)
      expect(repeated).toMatchObject({ ok: true })
      if (first.ok && repeated.ok) expect(repeated.providerRef).toBe(first.providerRef)
      const confirmed = first.ok ? await adapter.confirmPayment(first.providerRef, null) : null
      if (confirmed?.ok) expect(confirmed).toMatchObject({ status: 'completed', amount: tx.totalAmount })
      expect(await adapter.chargeStoredCard({ ...charge, token: `${state.card.token}x`, idempotencyKey: `renewal-${tx.id}-bad` })).toMatchObject({ ok: false })
    })
  })
}
