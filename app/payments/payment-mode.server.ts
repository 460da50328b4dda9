// Whether this deployment takes test payments (issue 18 §2): the built-in test provider, a school's
// 'test' integration, PayU sandbox credentials and Stripe test keys. Always in development and
// tests (ENVIRONMENT exactly "development" or "test"); anywhere else (production, or any other
// ENVIRONMENT: "staging", "prod", "", a typo) only when the operator set ALLOW_TEST_PAYMENTS =
// "true", which only a staging deployment does. Pure: no crypto, no D1.
// The built-in test provider needs more (issue 19 §7): an explicit setting, its notification
// secret TEST_PAYMENTS_SECRET, which only the development [vars] (wrangler.toml) and a staging
// deployment set — never on the mere absence of ENVIRONMENT = "production" (testProviderSecret).
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { isDevelopment, type Env } from '#app/utils/env.server.ts'

export type PaymentModeEnv = Pick<Env, 'ENVIRONMENT' | 'ALLOW_TEST_PAYMENTS'>

/** True when test payments may be connected, offered and confirmed in this deployment. */
export function testPaymentsAllowed(env: PaymentModeEnv): boolean {
  return isDevelopment(env) || env.ALLOW_TEST_PAYMENTS === 'true'
}

export type TestProviderEnv = PaymentModeEnv & Pick<Env, 'TEST_PAYMENTS_SECRET'>

/**
 * The built-in test provider's secret when the provider is on here: test payments allowed AND
 * TEST_PAYMENTS_SECRET configured (at least 16 characters); otherwise null (provider refused).
 */
export function testProviderSecret(env: TestProviderEnv): string | null {
  const secret = env.TEST_PAYMENTS_SECRET?.trim() ?? ''
  return testPaymentsAllowed(env) && secret.length >= 16 ? secret : null
}

/** A Stripe secret or restricted key of test mode (`sk_test_…`, `rk_test_…`). */
export const isStripeTestKey = (key: string | undefined) => /^(sk|rk)_test_/.test(key ?? '')

/**
 * Do these credentials (as stored by /home/settings/payments: PayU `sandbox: 'true'|'false'`,
 * Stripe `secretKey`) take test payments? The test provider always does.
 */
export function usesTestCredentials(provider: PaymentProvider, credentials: { sandbox?: string; secretKey?: string }): boolean {
  if (provider === 'test') return true
  if (provider === 'payu') return credentials.sandbox === 'true'
  return isStripeTestKey(credentials.secretKey)
}
