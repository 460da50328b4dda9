// /home/settings/payments through the real routes (issue 8 item 3): credentials checked with the
// PayU and Stripe dev peers (DEV_PEERS) before anything is written, sealed per school, never shown
// back; duplicates refused; enable/disable/delete; another school's id is 404.
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { getIntegration, openCredentials } from '#app/models/payment-integration.server.ts'
import { STRIPE_EVENTS } from '#app/payments/stripe-adapter.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, flashOf, followFlash, login, type TestSchool } from '#tests/factories.ts'

const testEnv = env as unknown as { DB: D1Database; DB_SHARD_0: D1Database; PEERS_DB: D1Database; DEV_PEERS: Fetcher; INTEGRATIONS_KEY: string }
// The dev peers' accounts (workers/dev-peers/wrangler.toml).
const PAYU = { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000' }
const STRIPE_KEY = 'sk_test_coursefront_dev_0000000000000000'

const payuForm = (over: Record<string, string> = {}) => ({ provider: 'payu', ...PAYU, currency: 'PLN', sandbox: 'no', ...over })
const stripeForm = (over: Record<string, string> = {}) => ({ provider: 'stripe', secretKey: STRIPE_KEY, currency: 'EUR', ...over })

async function rows(tenantId: string) {
  const { results } = await testEnv.DB_SHARD_0.prepare('SELECT id, provider, currency, enabled, public_ref FROM payment_integrations WHERE tenant_id = ? ORDER BY created_at').bind(tenantId).all<{ id: string; provider: string; currency: string; enabled: number; public_ref: string }>()
  return results
}

async function peerEndpoints(url: string) {
  const { results } = await testEnv.PEERS_DB.prepare('SELECT id, url, secret, enabled_events FROM stripe_webhook_endpoints WHERE url = ?').bind(url).all<{ id: string; url: string; secret: string; enabled_events: string }>()
  return results
}

async function owner(language: 'en' | 'pl' = 'en') {
  const school = await createTestSchool({ language })
  return { school, cookie: await login(school.host, school.owner.email, school.owner.password) }
}

const add = (school: TestSchool, cookie: string, form: Record<string, string>) => appFetch(school.host, '/home/settings/payments', { cookie, form })

describe('/home/settings/payments: adding providers', () => {
  it('saves PayU when the peer gives a token, sealed, and shows only the POS id', async () => {
    const { school, cookie } = await owner()
    const res = await add(school, cookie, payuForm())
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe('/home/settings/payments')
    expect(flashOf(res)).toMatchObject({ done: 'created', message: 'payments.done.created' })
    const [row] = await rows(school.tenantId)
    expect(row).toMatchObject({ provider: 'payu', currency: 'PLN', enabled: 1, public_ref: '300746' })
    const integration = (await getIntegration(db(), school.tenantId, row!.id))!
    expect(integration.credentials).not.toContain(PAYU.clientSecret)
    expect(await openCredentials(testEnv.INTEGRATIONS_KEY, integration)).toEqual({ ...PAYU, sandbox: 'false' })

    const page = await (await appFetch(school.host, '/home/settings/payments', { cookie: followFlash(cookie, res) })).text()
    expect(page).toContain('data-payment-integration="payu-PLN"')
    expect(page).toContain('data-integration-status="enabled"')
    expect(page).toContain('Integration created')
    for (const secret of [PAYU.clientSecret, PAYU.secondKey]) expect(page).not.toContain(secret)
  })

  it('refuses PayU credentials the peer rejects, in the page language, writing nothing and echoing no secret', async () => {
    const { school, cookie } = await owner()
    const res = await add(school, cookie, payuForm({ clientSecret: 'wrong-secret-of-this-test' }))
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('PayU refused these credentials. Check the client id and client secret.')
    expect(html).toContain('data-field-error="clientSecret"')
    expect(html).not.toContain('wrong-secret-of-this-test')
    expect(html).not.toContain(PAYU.secondKey)
    expect(html).toContain('value="300746"') // the POS id is kept for the next try
    expect(await rows(school.tenantId)).toEqual([])

    const other = await add(school, cookie, payuForm({ clientId: '999999' }))
    expect(other.status).toBe(422)
    expect(await rows(school.tenantId)).toEqual([])

    const pl = await owner('pl')
    const polish = await add(pl.school, pl.cookie, payuForm({ clientSecret: 'wrong-secret-of-this-test' }))
    expect(polish.status).toBe(422)
    expect(await polish.text()).toContain('PayU odrzuciło te dane. Sprawdź client id i client secret.')
    expect(await rows(pl.school.tenantId)).toEqual([])
  })

  it('refuses malformed fields with field errors before calling any provider', async () => {
    const { school, cookie } = await owner()
    const cases: Array<[Record<string, string>, string, string]> = [
      [payuForm({ posId: '30a746' }), 'posId', 'Enter the POS id: digits only'],
      [payuForm({ secondKey: '' }), 'secondKey', 'This field is required'],
      [payuForm({ clientSecret: 'has a space' }), 'clientSecret', 'Paste the key without spaces'],
      [payuForm({ currency: 'JPY' }), 'currency', 'Choose one of the options'],
      [stripeForm({ secretKey: 'pk_test_publishable000000' }), 'secretKey', 'Enter a secret key starting with sk_live_, sk_test_, rk_live_ or rk_test_'],
    ]
    for (const [form, field, text] of cases) {
      const res = await add(school, cookie, form)
      expect(res.status, text).toBe(422)
      const html = await res.text()
      expect(html).toContain(`data-field-error="${field}"`)
      expect(html).toContain(text)
    }
    expect((await add(school, cookie, { provider: 'paypal', currency: 'PLN' })).status).toBe(422)
    expect(await rows(school.tenantId)).toEqual([])
  })

  it('saves Stripe after creating the webhook endpoint for this integration on the peer, keeping its secret sealed', async () => {
    const { school, cookie } = await owner()
    const res = await add(school, cookie, stripeForm())
    expect(res.status).toBe(303)
    const [row] = await rows(school.tenantId)
    expect(row).toMatchObject({ provider: 'stripe', currency: 'EUR', enabled: 1, public_ref: '…0000' })
    const url = `http://${school.host}/payments/stripe/${row!.id}/notify`
    const [endpoint] = await peerEndpoints(url)
    expect(endpoint?.url).toBe(url)
    expect(JSON.parse(endpoint!.enabled_events)).toEqual(STRIPE_EVENTS)
    expect(STRIPE_EVENTS).toContain('checkout.session.completed')
    const credentials = await openCredentials(testEnv.INTEGRATIONS_KEY, (await getIntegration(db(), school.tenantId, row!.id))!)
    expect(credentials).toEqual({ secretKey: STRIPE_KEY, webhookSecret: endpoint!.secret, webhookEndpointId: endpoint!.id })

    // A webhook the peer signs for that endpoint now verifies at our notify URL (unknown session: acknowledged).
    const made = await testEnv.DEV_PEERS.fetch('http://peers.internal/_peer/stripe/events', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ type: 'checkout.session.expired', object: { id: 'cs_test_unknown_to_us', object: 'checkout.session', metadata: {} } }),
    })
    const { deliveries } = (await made.json()) as { deliveries: Array<{ url: string; payload: string; signature: string }> }
    const ours = deliveries.find((d) => d.url === url)!
    const signed = await appFetch(school.host, `/payments/stripe/${row!.id}/notify`, { method: 'POST', body: ours.payload, headers: { 'Content-Type': 'application/json', 'Stripe-Signature': ours.signature, 'Sec-Fetch-Site': 'cross-site' } })
    expect(signed.status).toBe(200)

    const page = await (await appFetch(school.host, '/home/settings/payments', { cookie })).text()
    expect(page).toContain('data-payment-integration="stripe-EUR"')
    expect(page).not.toContain(STRIPE_KEY)
    expect(page).not.toContain(endpoint!.secret)
  })

  it('refuses a Stripe key the peer rejects: no row and no webhook endpoint', async () => {
    const { school, cookie } = await owner()
    const before = (await testEnv.PEERS_DB.prepare('SELECT count(*) AS n FROM stripe_webhook_endpoints').first<{ n: number }>())!.n
    const res = await add(school, cookie, stripeForm({ secretKey: 'sk_test_not_the_peers_key_000000' }))
    expect(res.status).toBe(422)
    const html = await res.text()
    expect(html).toContain('Stripe refused this secret key.')
    expect(html).toContain('data-field-error="secretKey"')
    expect(html).not.toContain('sk_test_not_the_peers_key_000000')
    expect(await rows(school.tenantId)).toEqual([])
    expect((await testEnv.PEERS_DB.prepare('SELECT count(*) AS n FROM stripe_webhook_endpoints').first<{ n: number }>())!.n).toBe(before)
  })

  it('rejects a duplicate provider + currency with the seed wording, without asking the provider again', async () => {
    const { school, cookie } = await owner()
    expect((await add(school, cookie, stripeForm())).status).toBe(303)
    const endpoints = (await testEnv.PEERS_DB.prepare('SELECT count(*) AS n FROM stripe_webhook_endpoints').first<{ n: number }>())!.n
    const again = await add(school, cookie, stripeForm())
    expect(again.status).toBe(409)
    const html = await again.text()
    expect(html).toContain('A duplicate integration is rejected: Stripe in EUR is already connected.')
    expect(html).toContain('data-field-error="currency"')
    expect((await testEnv.PEERS_DB.prepare('SELECT count(*) AS n FROM stripe_webhook_endpoints').first<{ n: number }>())!.n).toBe(endpoints)
    expect(await rows(school.tenantId)).toHaveLength(1)
    // Same provider, another currency; another provider, same currency: both fine.
    expect((await add(school, cookie, stripeForm({ currency: 'PLN' }))).status).toBe(303)
    expect((await add(school, cookie, payuForm({ currency: 'EUR' }))).status).toBe(303)
    expect((await add(school, cookie, { provider: 'test', currency: 'EUR' })).status).toBe(303)
    expect((await add(school, cookie, { provider: 'test', currency: 'EUR' })).status).toBe(409)
    expect((await rows(school.tenantId)).map((r) => `${r.provider}-${r.currency}`)).toEqual(['stripe-EUR', 'stripe-PLN', 'payu-EUR', 'test-EUR'])
  })

  it('is for owners and admins only', async () => {
    const { school } = await owner()
    const student = await createTestStudent(school.tenantId)
    const cookie = await login(school.host, student.email, student.password)
    expect((await appFetch(school.host, '/home/settings/payments', { cookie })).status).toBe(404)
    expect((await add(school, cookie, payuForm())).status).toBe(404)
    expect((await appFetch(school.host, '/home/settings/payments')).status).toBe(302)
    expect(await rows(school.tenantId)).toEqual([])
  })
})

describe('/home/settings/payments/{id}', () => {
  it('disables, enables and deletes (typing DELETE); the checkout stops offering a disabled one', async () => {
    const { school, cookie } = await owner()
    expect((await add(school, cookie, payuForm())).status).toBe(303)
    const [row] = await rows(school.tenantId)
    const post = (form: Record<string, string>) => appFetch(school.host, `/home/settings/payments/${row!.id}`, { cookie, form })

    const disabled = await post({ intent: 'disable' })
    expect(disabled.status).toBe(303)
    expect(disabled.headers.get('Location')).toBe('/home/settings/payments')
    expect(flashOf(disabled)).toMatchObject({ done: 'disabled', message: 'payments.done.disabled' })
    expect((await rows(school.tenantId))[0]!.enabled).toBe(0)
    const page = await (await appFetch(school.host, '/home/settings/payments', { cookie: followFlash(cookie, disabled) })).text()
    expect(page).toContain('data-integration-status="disabled"')
    expect(page).toContain('Integration disabled')

    const enabled = await post({ intent: 'enable' })
    expect(enabled.headers.get('Location')).toBe('/home/settings/payments')
    expect(flashOf(enabled)).toMatchObject({ done: 'enabled', message: 'payments.done.enabled' })
    expect((await rows(school.tenantId))[0]!.enabled).toBe(1)

    const unconfirmed = await post({ intent: 'delete', confirm: 'delete me' })
    expect(unconfirmed.headers.get('Location')).toBe('/home/settings/payments?error=payments.error.confirm_delete')
    expect(await rows(school.tenantId)).toHaveLength(1)
    const deleted = await post({ intent: 'delete', confirm: 'DELETE' })
    expect(deleted.headers.get('Location')).toBe('/home/settings/payments')
    expect(flashOf(deleted)).toMatchObject({ done: 'deleted', message: 'payments.done.deleted' })
    expect(await rows(school.tenantId)).toEqual([])
    expect((await post({ intent: 'enable' })).status).toBe(404)
  })

  it('answers 404 to the owner of another school and changes nothing', async () => {
    const victim = await owner()
    expect((await add(victim.school, victim.cookie, payuForm())).status).toBe(303)
    const [row] = await rows(victim.school.tenantId)
    const stranger = await owner()
    for (const form of [{ intent: 'disable' }, { intent: 'enable' }, { intent: 'delete', confirm: 'DELETE' }] as Array<Record<string, string>>) {
      expect((await appFetch(stranger.school.host, `/home/settings/payments/${row!.id}`, { cookie: stranger.cookie, form })).status).toBe(404)
    }
    expect((await appFetch(stranger.school.host, `/home/settings/payments/${row!.id}`, { cookie: stranger.cookie })).status).toBe(404)
    expect(await rows(victim.school.tenantId)).toEqual([row])
  })
})
