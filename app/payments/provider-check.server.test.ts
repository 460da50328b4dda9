// Credential checks against the PayU and Stripe dev peers (DEV_PEERS), and what an unreachable or
// wrong provider address gives: 'unavailable', never a pass. Where test payments are not allowed
// (production without ALLOW_TEST_PAYMENTS), sandbox credentials and test keys are 'test_mode'
// without any call to the provider.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
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

describe('test credentials where test payments are not allowed', () => {
  const production = contextWith({ ENVIRONMENT: 'production' })
  const staging = contextWith({ ENVIRONMENT: 'production', ALLOW_TEST_PAYMENTS: 'true' })
  const payuCreds = { clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000' }
  /** Plays PayU's OAuth and Stripe's webhook endpoint API on the real hosts; records every URL asked. */
  function stubProviders() {
    const urls: string[] = []
    vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL) => {
      const url = input instanceof Request ? input.url : String(input)
      urls.push(url)
      if (url.endsWith('/pl/standard/user/oauth/authorize')) return Response.json({ access_token: 'tok', token_type: 'bearer', expires_in: 43199 })
      if (url.startsWith('https://api.stripe.com/v1/webhook_endpoints')) return Response.json({ id: 'we_stub', object: 'webhook_endpoint', secret: 'whsec_stub' })
      return new Response('unexpected', { status: 500 })
    })
    return urls
  }
  afterEach(() => {
    vi.restoreAllMocks()
  })

  it('refuses PayU sandbox in production as test_mode without asking PayU; real credentials still go to PayU', async () => {
    const urls = stubProviders()
    expect(await checkPayuCredentials(production, { ...payuCreds, sandbox: true })).toEqual({ ok: false, reason: 'test_mode' })
    expect(urls).toEqual([])
    expect(await checkPayuCredentials(production, { ...payuCreds, sandbox: false })).toEqual({ ok: true })
    expect(urls).toEqual(['https://secure.payu.com/pl/standard/user/oauth/authorize'])
  })

  it('refuses sk_test_ and rk_test_ keys in production as test_mode without asking Stripe; a live key goes to Stripe', async () => {
    const urls = stubProviders()
    for (const key of ['sk_test_coursefront_dev_0000000000000000', 'rk_test_coursefront_dev_0000000000000000']) {
      expect(await createStripeWebhook(production, key, 'https://school.example/x'), key).toEqual({ ok: false, reason: 'test_mode' })
    }
    expect(urls).toEqual([])
    expect(await createStripeWebhook(production, 'sk_live_coursefront_0000000000000000', 'https://school.example/x')).toEqual({ ok: true, endpointId: 'we_stub', webhookSecret: 'whsec_stub' })
    expect(urls).toEqual(['https://api.stripe.com/v1/webhook_endpoints'])
  })

  it('checks sandbox credentials and test keys against the real sandbox hosts on a staging deployment (ALLOW_TEST_PAYMENTS=true)', async () => {
    const urls = stubProviders()
    expect(await checkPayuCredentials(staging, { ...payuCreds, sandbox: true })).toEqual({ ok: true })
    expect(await createStripeWebhook(staging, 'rk_test_coursefront_dev_0000000000000000', 'https://school.example/x')).toMatchObject({ ok: true, endpointId: 'we_stub' })
    expect(urls).toEqual(['https://secure.snd.payu.com/pl/standard/user/oauth/authorize', 'https://api.stripe.com/v1/webhook_endpoints'])
  })
})
