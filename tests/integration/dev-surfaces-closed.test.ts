// Issue 19 §7: development-only surfaces fail closed. Only ENVIRONMENT exactly "development" or
// "test" opens them; any other value — "staging" without ALLOW_TEST_PAYMENTS, "prod", "", a
// capitalised or misspelt name — gets production's behaviour: no test payments (the built-in test
// provider also needs its explicit TEST_PAYMENTS_SECRET), no /dev/* pages, no pay.{host} peers.
import type { AppLoadContext } from '@remix-run/cloudflare'
import { createExecutionContext } from 'cloudflare:test'
import { env } from 'cloudflare:workers'
import { describe, expect, it } from 'vitest'
import { getIntegrationAdapter, listCheckoutMethods, resolveCheckoutProvider } from '#app/payments/registry.server.ts'
import { appFetch, createTestSchool, db, PLATFORM } from '#tests/factories.ts'

const UNKNOWN = ['staging', 'prod', '', 'Production', 'DEVELOPMENT', 'dev', 'test ', 'preview']
const contextAs = (vars: Record<string, string>) => ({ cloudflare: { env: { ...env, ...vars }, ctx: createExecutionContext() }, db: db(), site: { kind: 'platform' } }) as unknown as AppLoadContext

describe('an unknown ENVIRONMENT value', () => {
  it.each(UNKNOWN)('%j: no /dev/* page on the platform host', async (ENVIRONMENT) => {
    const vars = { ENVIRONMENT }
    expect((await appFetch(PLATFORM, '/dev/mail', { vars })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/dev/mail/anything', { vars })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/dev/dns', { vars })).status).toBe(404)
    expect((await appFetch(PLATFORM, '/dev/memberships/renew', { vars, form: {} })).status).toBe(404)
  })

  it.each(UNKNOWN)('%j: pay.{host} is not forwarded to the payment peers', async (ENVIRONMENT) => {
    const res = await appFetch(`pay.${PLATFORM}`, '/payu/boarding/form?partnerId=coursefront-dev', { vars: { ENVIRONMENT } })
    expect(res.status).toBe(404)
    expect(await res.text()).not.toContain('PayU')
  })

  it.each(UNKNOWN)('%j: no test payments — the test provider is neither offered, resolved nor its page served', async (ENVIRONMENT) => {
    const school = await createTestSchool()
    const context = contextAs({ ENVIRONMENT })
    for (const currency of ['PLN', 'USD', 'EUR']) {
      expect(await listCheckoutMethods(context, school.tenantId, currency)).not.toContainEqual({ id: 'test', provider: 'test' })
      expect((await resolveCheckoutProvider(context, school.tenantId, currency))?.integration.provider).not.toBe('test')
    }
    expect(await getIntegrationAdapter(context, school.tenantId, 'test', 'test')).toBeNull()
    expect((await appFetch(school.host, '/pay/test/abcdefghijklmnopqrst', { vars: { ENVIRONMENT } })).status).toBe(404)
  })

  it('"staging" with ALLOW_TEST_PAYMENTS=true but without TEST_PAYMENTS_SECRET: still no built-in test provider', async () => {
    const school = await createTestSchool()
    const context = contextAs({ ENVIRONMENT: 'staging', ALLOW_TEST_PAYMENTS: 'true', TEST_PAYMENTS_SECRET: '' })
    expect(await listCheckoutMethods(context, school.tenantId, 'PLN')).not.toContainEqual({ id: 'test', provider: 'test' })
    expect(await getIntegrationAdapter(context, school.tenantId, 'test', 'test')).toBeNull()
  })
})

describe('the known development values (the control)', () => {
  it('"test" (as in the dev [vars]) opens the dev pages, the peers and the test provider', async () => {
    expect((await appFetch(PLATFORM, '/dev/mail')).status).toBe(200)
    const pay = await appFetch(`pay.${PLATFORM}`, '/payu/boarding/form?partnerId=coursefront-dev')
    expect(pay.status).not.toBe(404)
    const school = await createTestSchool()
    expect(await listCheckoutMethods(contextAs({}), school.tenantId, 'PLN')).toContainEqual({ id: 'test', provider: 'test' })
  })
})
