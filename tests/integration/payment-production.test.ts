// Issue 18 §2: production refuses test payments unless the deployment sets ALLOW_TEST_PAYMENTS=true
// (staging). Connecting PayU sandbox, a Stripe sk_test_/rk_test_ key or the test provider is a field
// error with nothing written and no provider asked; stored sandbox/test integrations are neither
// offered at checkout nor resolved on the notify URL. The app worker is called with the test env
// plus ENVIRONMENT=production (and ALLOW_TEST_PAYMENTS for staging).
import type { AppLoadContext } from '@remix-run/cloudflare'
import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createIntegration, getIntegration, openCredentials, setIntegrationEnabled } from '#app/models/payment-integration.server.ts'
import { getIntegrationAdapter, listCheckoutMethods, resolveCheckoutProvider } from '#app/payments/registry.server.ts'
import { appFetch, createTestSchool, db, flashOf, login, type TestSchool } from '#tests/factories.ts'

const testEnv = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database; INTEGRATIONS_KEY: string; ENVIRONMENT: string }
const PRODUCTION = { ENVIRONMENT: 'production' }
const STAGING = { ENVIRONMENT: 'production', ALLOW_TEST_PAYMENTS: 'true' }
type Vars = Record<string, string>

const PAYU = { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000' }
const payuForm = (over: Vars = {}) => ({ provider: 'payu', ...PAYU, currency: 'PLN', sandbox: 'yes', ...over })
const stripeForm = (secretKey: string, currency = 'EUR') => ({ provider: 'stripe', secretKey, currency })
// The Stripe peer's keys (workers/dev-peers/wrangler.toml PEER_STRIPE_SECRET_KEY / _RESTRICTED_KEY).
const SK_TEST = 'sk_test_coursefront_dev_0000000000000000'
const RK_TEST = 'rk_test_coursefront_dev_0000000000000000'

/** tests/factories.ts appFetch, with this deployment's vars over the test env. */
const fetchAs = (vars: Vars, host: string, path: string, init: { form?: Vars; cookie?: string; method?: string; body?: string; headers?: Record<string, string> } = {}) => appFetch(host, path, { ...init, vars })

const contextAs = (vars: Vars) => ({ cloudflare: { env: { ...env, ...vars }, ctx: createExecutionContext() }, db: db() }) as unknown as AppLoadContext

async function rows(tenantId: string) {
  const { results } = await testEnv.DB_SHARD_0.prepare('SELECT id, provider, currency, enabled FROM payment_integrations WHERE tenant_id = ? ORDER BY created_at').bind(tenantId).all<{ id: string; provider: string; currency: string; enabled: number }>()
  return results
}

async function owner(language: 'en' | 'pl' = 'en') {
  const school = await createTestSchool({ language })
  return { school, cookie: await login(school.host, school.owner.email, school.owner.password) }
}

/**
 * Production and staging talk to PayU's and Stripe's real hosts, which this sandbox has no route
 * to: every request for them goes to the dev peers instead (the same protocol: OAuth, Bearer keys,
 * webhook endpoints), and its URL is recorded, so a test sees which host the app asked. Anything
 * else goes to the real fetch.
 */
function routeProvidersToPeers() {
  const urls: string[] = []
  const realFetch = globalThis.fetch
  const peers = (env as unknown as { DEV_PEERS: Fetcher }).DEV_PEERS
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input: RequestInfo | URL, init?: RequestInit) => {
    const request = new Request(input, init)
    const url = new URL(request.url)
    const peer = /^secure(\.snd)?\.payu\.com$/.test(url.hostname) ? 'http://payu.dev-peers.internal/payu' : url.hostname === 'api.stripe.com' ? 'http://stripe.dev-peers.internal/stripe' : null
    if (!peer) return realFetch(input, init)
    urls.push(`${url.origin}${url.pathname}`)
    return peers.fetch(new Request(`${peer}${url.pathname}${url.search}`, request))
  })
  return urls
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('connecting test payments where they are not allowed (production)', () => {
  const add = (school: TestSchool, cookie: string, form: Vars) => fetchAs(PRODUCTION, school.host, '/home/settings/payments', { cookie, form })

  it('refuses PayU sandbox, sk_test_ and rk_test_ keys and the test provider with a field error, writing nothing and asking no provider', async () => {
    const urls = routeProvidersToPeers()
    const { school, cookie } = await owner()
    const cases: Array<[Vars, string, string]> = [
      [payuForm(), 'sandbox', 'Only real payments are taken here: the PayU sandbox cannot be connected. Choose “No, real payments” and your production keys.'],
      [stripeForm(SK_TEST), 'secretKey', 'Only real payments are taken here: test keys (sk_test_…, rk_test_…) cannot be connected. Use a live key (sk_live_… or rk_live_…).'],
      [stripeForm(RK_TEST), 'secretKey', 'Only real payments are taken here: test keys (sk_test_…, rk_test_…) cannot be connected.'],
      [{ provider: 'test', currency: 'USD' }, 'provider', 'Only real payments are taken here: the test provider cannot be connected.'],
    ]
    for (const [form, field, text] of cases) {
      const res = await add(school, cookie, form)
      expect(res.status, `${form.provider} ${form.secretKey ?? ''}`).toBe(422)
      const html = await res.text()
      expect(html).toContain(`data-field-error="${field}"`)
      expect(html).toContain(text)
      for (const secret of [PAYU.clientSecret, PAYU.secondKey, SK_TEST, RK_TEST]) expect(html).not.toContain(secret)
    }
    expect(await rows(school.tenantId)).toEqual([])
    expect(urls).toEqual([])

    // The page offers no test provider form there.
    const page = await (await fetchAs(PRODUCTION, school.host, '/home/settings/payments', { cookie })).text()
    expect(page).toContain('data-payment-form="payu"')
    expect(page).not.toContain('data-payment-form="test"')
  })

  it('says so in Polish on a Polish school', async () => {
    const { school, cookie } = await owner('pl')
    const cases: Array<[Vars, string]> = [
      [payuForm(), 'Tutaj przyjmowane są tylko prawdziwe płatności: nie można połączyć sandboxa PayU. Wybierz „Nie, prawdziwe płatności” i klucze produkcyjne.'],
      [stripeForm(RK_TEST), 'nie można połączyć kluczy testowych (sk_test_…, rk_test_…). Użyj klucza produkcyjnego (sk_live_… lub rk_live_…).'],
      [{ provider: 'test', currency: 'PLN' }, 'Tutaj przyjmowane są tylko prawdziwe płatności: nie można połączyć operatora testowego.'],
    ]
    for (const [form, text] of cases) {
      const res = await add(school, cookie, form)
      expect(res.status).toBe(422)
      expect(await res.text()).toContain(text)
    }
    expect(await rows(school.tenantId)).toEqual([])
  })

  it('still connects real credentials in production (PayU without sandbox, on PayU’s production host)', async () => {
    const urls = routeProvidersToPeers()
    const { school, cookie } = await owner()
    const res = await add(school, cookie, payuForm({ sandbox: 'no' }))
    expect(res.status).toBe(303)
    expect(urls).toEqual(['https://secure.payu.com/pl/standard/user/oauth/authorize'])
    expect((await rows(school.tenantId)).map((r) => `${r.provider}-${r.currency}`)).toEqual(['payu-PLN'])
  })
})

describe('connecting test payments on a staging deployment (ALLOW_TEST_PAYMENTS=true)', () => {
  it('accepts PayU sandbox (checked on the sandbox host), sk_test_ and rk_test_ keys and the test provider', async () => {
    const urls = routeProvidersToPeers()
    const { school, cookie } = await owner()
    const add = (form: Vars) => fetchAs(STAGING, school.host, '/home/settings/payments', { cookie, form })
    for (const form of [payuForm(), stripeForm(SK_TEST, 'EUR'), stripeForm(RK_TEST, 'USD'), { provider: 'test', currency: 'GBP' }]) {
      const res = await add(form)
      expect(res.status, `${form.provider} ${form.currency}`).toBe(303)
      expect(res.headers.get('Location')).toBe('/home/settings/payments')
      expect(flashOf(res)).toMatchObject({ done: 'created', message: 'payments.done.created' })
    }
    expect(urls).toEqual(['https://secure.snd.payu.com/pl/standard/user/oauth/authorize', 'https://api.stripe.com/v1/webhook_endpoints', 'https://api.stripe.com/v1/webhook_endpoints'])
    const saved = await rows(school.tenantId)
    expect(saved.map((r) => `${r.provider}-${r.currency}`)).toEqual(['payu-PLN', 'stripe-EUR', 'stripe-USD', 'test-GBP'])
    expect(await openCredentials(testEnv.INTEGRATIONS_KEY, (await getIntegration(db(), school.tenantId, saved[0]!.id))!)).toEqual({ ...PAYU, sandbox: 'true' })

    const page = await (await fetchAs(STAGING, school.host, '/home/settings/payments', { cookie })).text()
    expect(page).toContain('data-payment-form="test"')
  })
})

/** A school with integrations stored earlier (e.g. before this change): PayU sandbox, Stripe test keys, the test provider. */
async function schoolWithTestIntegrations() {
  const school = await createTestSchool()
  const key = testEnv.INTEGRATIONS_KEY
  const payu = await createIntegration(db(), key, school.tenantId, { provider: 'payu', currency: 'PLN', credentials: { ...PAYU, sandbox: 'true' }, publicRef: '300746 · sandbox' })
  const skTest = await createIntegration(db(), key, school.tenantId, { provider: 'stripe', currency: 'EUR', credentials: { secretKey: SK_TEST, webhookSecret: 'whsec_x', webhookEndpointId: 'we_x' }, publicRef: '…0000' })
  const rkTest = await createIntegration(db(), key, school.tenantId, { provider: 'stripe', currency: 'GBP', credentials: { secretKey: RK_TEST, webhookSecret: 'whsec_y', webhookEndpointId: 'we_y' }, publicRef: '…0000' })
  const test = await createIntegration(db(), key, school.tenantId, { provider: 'test', currency: 'USD', credentials: {} })
  return { school, integrations: [payu, skTest, rkTest, test] }
}

describe('stored test integrations at checkout and on the notify URL', () => {
  it('offers and resolves none of them in production, not even when chosen by id, nor the built-in test provider', async () => {
    const { school, integrations } = await schoolWithTestIntegrations()
    const production = contextAs(PRODUCTION)
    for (const i of integrations) {
      expect(await listCheckoutMethods(production, school.tenantId, i.currency), i.currency).toEqual([])
      expect(await resolveCheckoutProvider(production, school.tenantId, i.currency)).toBeNull()
      expect(await resolveCheckoutProvider(production, school.tenantId, i.currency, i.id)).toBeNull()
      expect(await resolveCheckoutProvider(production, school.tenantId, i.currency, 'test')).toBeNull()
      expect(await getIntegrationAdapter(production, school.tenantId, i.provider, i.id), `${i.provider} ${i.currency}`).toBeNull()
    }
    expect(await getIntegrationAdapter(production, school.tenantId, 'test', 'test')).toBeNull()
  })

  it('offers and resolves them on a staging deployment and in development', async () => {
    const { school, integrations } = await schoolWithTestIntegrations()
    for (const vars of [STAGING, { ENVIRONMENT: testEnv.ENVIRONMENT }]) {
      const context = contextAs(vars)
      for (const i of integrations) {
        const methods = await listCheckoutMethods(context, school.tenantId, i.currency)
        expect(methods[0], `${vars.ENVIRONMENT} ${i.currency}`).toEqual({ id: i.id, provider: i.provider })
        expect((await resolveCheckoutProvider(context, school.tenantId, i.currency))?.integration).toEqual({ id: i.id, provider: i.provider })
        expect((await getIntegrationAdapter(context, school.tenantId, i.provider, i.id))?.provider).toBe(i.provider)
      }
      expect(await listCheckoutMethods(context, school.tenantId, 'PLN')).toContainEqual({ id: 'test', provider: 'test' })
      expect((await getIntegrationAdapter(context, school.tenantId, 'test', 'test'))?.provider).toBe('test')
    }
  })

  it('keeps real integrations next to them in production', async () => {
    const school = await createTestSchool()
    const key = testEnv.INTEGRATIONS_KEY
    const live = await createIntegration(db(), key, school.tenantId, { provider: 'stripe', currency: 'EUR', credentials: { secretKey: 'sk_live_coursefront_0000000000000000', webhookSecret: 'whsec_z', webhookEndpointId: 'we_z' } })
    const sandbox = await createIntegration(db(), key, school.tenantId, { provider: 'payu', currency: 'EUR', credentials: { ...PAYU, sandbox: 'true' } })
    const test = await createIntegration(db(), key, school.tenantId, { provider: 'test', currency: 'EUR', credentials: {} })
    const production = contextAs(PRODUCTION)
    expect(await listCheckoutMethods(production, school.tenantId, 'EUR')).toEqual([{ id: live.id, provider: 'stripe' }])
    expect((await resolveCheckoutProvider(production, school.tenantId, 'EUR'))?.integration).toEqual({ id: live.id, provider: 'stripe' })
    expect(await resolveCheckoutProvider(production, school.tenantId, 'EUR', sandbox.id)).toBeNull()
    expect(await resolveCheckoutProvider(production, school.tenantId, 'EUR', test.id)).toBeNull()
    expect((await getIntegrationAdapter(production, school.tenantId, 'stripe', live.id))?.provider).toBe('stripe')
    expect(await listCheckoutMethods(contextAs(STAGING), school.tenantId, 'EUR')).toEqual([
      { id: sandbox.id, provider: 'payu' },
      { id: live.id, provider: 'stripe' },
      { id: test.id, provider: 'test' },
    ])
  })

  it('answers 404 on their notify URLs in production, and verifies the signature on staging', async () => {
    const { school, integrations } = await schoolWithTestIntegrations()
    const notify = (vars: Vars, provider: string, id: string) =>
      fetchAs(vars, school.host, `/payments/${provider}/${id}/notify`, { method: 'POST', body: '{"order":{}}', headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'cross-site' } })
    for (const [provider, id] of [...integrations.map((i) => [i.provider, i.id]), ['test', 'test']] as Array<[string, string]>) {
      const refused = await notify(PRODUCTION, provider, id)
      expect(refused.status, `${provider} ${id}`).toBe(404)
      expect(await refused.json()).toEqual({ error: 'not_found' })
      const unsigned = await notify(STAGING, provider, id)
      expect(unsigned.status, `${provider} ${id}`).toBe(400)
      expect(await unsigned.json()).toEqual({ error: 'invalid_signature' })
    }
  })
})

describe('enabling a stored test integration', () => {
  it('is refused in production with the reason on the page; staging enables it; a real one enables anywhere', async () => {
    const { school, cookie } = await owner()
    const key = testEnv.INTEGRATIONS_KEY
    const sandbox = await createIntegration(db(), key, school.tenantId, { provider: 'payu', currency: 'PLN', credentials: { ...PAYU, sandbox: 'true' } })
    const test = await createIntegration(db(), key, school.tenantId, { provider: 'test', currency: 'USD', credentials: {} })
    const live = await createIntegration(db(), key, school.tenantId, { provider: 'payu', currency: 'EUR', credentials: { ...PAYU, sandbox: 'false' } })
    for (const i of [sandbox, test, live]) await setIntegrationEnabled(db(), school.tenantId, i.id, false)
    const enable = (vars: Vars, id: string) => fetchAs(vars, school.host, `/home/settings/payments/${id}`, { cookie, form: { intent: 'enable' } })

    for (const i of [sandbox, test]) {
      const refused = await enable(PRODUCTION, i.id)
      expect(refused.status).toBe(303)
      expect(refused.headers.get('Location')).toBe('/home/settings/payments?error=payments.error.test_mode_enable')
    }
    const enabled = async () => Object.fromEntries((await rows(school.tenantId)).map((r) => [r.id, r.enabled]))
    expect(await enabled()).toEqual({ [sandbox.id]: 0, [test.id]: 0, [live.id]: 0 })
    const page = await (await fetchAs(PRODUCTION, school.host, '/home/settings/payments?error=payments.error.test_mode_enable', { cookie })).text()
    expect(page).toContain('this integration uses test credentials (PayU sandbox or a Stripe test key), so it cannot be enabled.')

    for (const enabledNow of [await enable(PRODUCTION, live.id), await enable(STAGING, sandbox.id)]) {
      expect(enabledNow.headers.get('Location')).toBe('/home/settings/payments')
      expect(flashOf(enabledNow)).toMatchObject({ done: 'enabled', message: 'payments.done.enabled' })
    }
    expect(await enabled()).toEqual({ [sandbox.id]: 1, [test.id]: 0, [live.id]: 1 })
  })
})
