// Credential checks against the PayU and Stripe dev peers (DEV_PEERS), and what an unreachable or
// wrong provider address gives: 'unavailable', never a pass.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { checkPayuCredentials, createStripeWebhook, payuBaseUrl, stripeApiBase } from './provider-check.server.ts'

const testEnv = env as unknown as { DEV_PEERS: Fetcher; PAYU_API_URL: string; STRIPE_API_URL: string }
const contextWith = (vars: Record<string, unknown>) => ({ cloudflare: { env: { ENVIRONMENT: 'development', DEV_PEERS: testEnv.DEV_PEERS, PAYU_API_URL: testEnv.PAYU_API_URL, STRIPE_API_URL: testEnv.STRIPE_API_URL, ...vars } } }) as unknown as AppLoadContext
// Nothing listens on the discard port here: a real connection failure.
const CLOSED = 'http://127.0.0.1:9'

describe('checkPayuCredentials', () => {
  it('passes the peer account and refuses a wrong secret, even right after a good check', async () => {
    const context = contextWith({})
    expect(await checkPayuCredentials(context, { clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', sandbox: false })).toEqual({ ok: true })
    expect(await checkPayuCredentials(context, { clientId: '300746', clientSecret: 'not-it', sandbox: false })).toEqual({ ok: false, reason: 'refused' })
  })

  it('reports an unreachable or non-PayU address as unavailable', async () => {
    const creds = { clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', sandbox: false }
    expect(await checkPayuCredentials(contextWith({ DEV_PEERS: undefined, PAYU_API_URL: `${CLOSED}/payu` }), creds)).toEqual({ ok: false, reason: 'unavailable' })
    expect(await checkPayuCredentials(contextWith({ PAYU_API_URL: 'http://payu.dev-peers.internal/not-payu' }), creds)).toEqual({ ok: false, reason: 'unavailable' })
  })

  it('uses the real PayU hosts in production, whatever the development variables say', () => {
    const production = contextWith({ ENVIRONMENT: 'production' })
    expect(payuBaseUrl(production, true)).toBe('https://secure.snd.payu.com')
    expect(payuBaseUrl(production, false)).toBe('https://secure.payu.com')
    expect(stripeApiBase(production)).toBeUndefined()
    expect(payuBaseUrl(contextWith({}), false)).toBe(testEnv.PAYU_API_URL)
  })
})

describe('createStripeWebhook', () => {
  it('creates the endpoint with the peer key and refuses another key', async () => {
    const url = `https://school.example/payments/stripe/${crypto.randomUUID()}/notify`
    const created = await createStripeWebhook(contextWith({}), 'sk_test_coursefront_dev_0000000000000000', url)
    expect(created).toMatchObject({ ok: true, endpointId: expect.stringMatching(/^we_/), webhookSecret: expect.stringMatching(/^whsec_/) })
    expect(await createStripeWebhook(contextWith({}), 'sk_test_wrong_key_000000000', url)).toEqual({ ok: false, reason: 'refused' })
  })

  it('reports an unreachable Stripe as unavailable', async () => {
    expect(await createStripeWebhook(contextWith({ DEV_PEERS: undefined, STRIPE_API_URL: `${CLOSED}/stripe` }), 'sk_test_coursefront_dev_0000000000000000', 'https://school.example/x')).toEqual({ ok: false, reason: 'unavailable' })
  })
})
