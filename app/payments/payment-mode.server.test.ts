// Issue 18 §2: which deployments take test payments, and which credentials are test ones.
import { describe, expect, it } from 'vitest'
import { isStripeTestKey, testPaymentsAllowed, testProviderSecret, usesTestCredentials } from './payment-mode.server.ts'

describe('testPaymentsAllowed', () => {
  it('always allows them in development and tests, whatever ALLOW_TEST_PAYMENTS says', () => {
    for (const ENVIRONMENT of ['development', 'test']) {
      expect(testPaymentsAllowed({ ENVIRONMENT })).toBe(true)
      expect(testPaymentsAllowed({ ENVIRONMENT, ALLOW_TEST_PAYMENTS: 'false' })).toBe(true)
    }
  })

  it('refuses them in production unless ALLOW_TEST_PAYMENTS is exactly "true" (a staging deployment)', () => {
    expect(testPaymentsAllowed({ ENVIRONMENT: 'production' })).toBe(false)
    for (const value of ['', 'false', '1', 'yes', 'TRUE', ' true']) expect(testPaymentsAllowed({ ENVIRONMENT: 'production', ALLOW_TEST_PAYMENTS: value }), value).toBe(false)
    expect(testPaymentsAllowed({ ENVIRONMENT: 'production', ALLOW_TEST_PAYMENTS: 'true' })).toBe(true)
  })

  it('treats any other or missing ENVIRONMENT as production (fails closed)', () => {
    for (const ENVIRONMENT of ['staging', 'prod', '', 'Production', 'dev', 'Development', ' test']) expect(testPaymentsAllowed({ ENVIRONMENT }), ENVIRONMENT).toBe(false)
    expect(testPaymentsAllowed({ ENVIRONMENT: 'staging', ALLOW_TEST_PAYMENTS: 'true' })).toBe(true)
  })
})

describe('testProviderSecret (issue 19 §7: the built-in test provider needs an explicit setting)', () => {
  const SECRET = 'coursefront_dev_test_payments_secret_0000'

  it('is on in development and tests only with its secret configured', () => {
    for (const ENVIRONMENT of ['development', 'test']) {
      expect(testProviderSecret({ ENVIRONMENT, TEST_PAYMENTS_SECRET: SECRET })).toBe(SECRET)
      for (const TEST_PAYMENTS_SECRET of [undefined, '', '   ', 'short']) expect(testProviderSecret({ ENVIRONMENT, TEST_PAYMENTS_SECRET }), String(TEST_PAYMENTS_SECRET)).toBeNull()
    }
  })

  it('is off for production and every unknown ENVIRONMENT, even with the secret, unless ALLOW_TEST_PAYMENTS is "true"', () => {
    for (const ENVIRONMENT of ['production', 'staging', 'prod', '', 'Production', 'DEVELOPMENT', 'dev', 'test ', 'preview']) {
      expect(testProviderSecret({ ENVIRONMENT, TEST_PAYMENTS_SECRET: SECRET }), JSON.stringify(ENVIRONMENT)).toBeNull()
      expect(testProviderSecret({ ENVIRONMENT, TEST_PAYMENTS_SECRET: SECRET, ALLOW_TEST_PAYMENTS: 'yes' }), JSON.stringify(ENVIRONMENT)).toBeNull()
    }
    expect(testProviderSecret({ ENVIRONMENT: 'staging', TEST_PAYMENTS_SECRET: SECRET, ALLOW_TEST_PAYMENTS: 'true' })).toBe(SECRET)
    expect(testProviderSecret({ ENVIRONMENT: 'staging', ALLOW_TEST_PAYMENTS: 'true' })).toBeNull()
  })
})

describe('usesTestCredentials', () => {
  it('knows Stripe test keys by their sk_test_/rk_test_ prefix', () => {
    expect(['sk_test_abc12345', 'rk_test_abc12345'].map(isStripeTestKey)).toEqual([true, true])
    expect(['sk_live_abc12345', 'rk_live_abc12345', 'pk_test_abc12345', 'xsk_test_abc', '', undefined].map(isStripeTestKey)).toEqual([false, false, false, false, false, false])
    expect(usesTestCredentials('stripe', { secretKey: 'sk_test_abc12345' })).toBe(true)
    expect(usesTestCredentials('stripe', { secretKey: 'rk_test_abc12345' })).toBe(true)
    expect(usesTestCredentials('stripe', { secretKey: 'sk_live_abc12345' })).toBe(false)
  })

  it('takes PayU with sandbox "true" as test, anything else as real', () => {
    expect(usesTestCredentials('payu', { sandbox: 'true' })).toBe(true)
    expect(usesTestCredentials('payu', { sandbox: 'false' })).toBe(false)
    expect(usesTestCredentials('payu', {})).toBe(false)
  })

  it('always takes the test provider as test', () => {
    expect(usesTestCredentials('test', {})).toBe(true)
  })
})
