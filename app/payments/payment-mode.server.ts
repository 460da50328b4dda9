// Whether this deployment takes test payments (issue 18 §2): the built-in test provider, a school's
// 'test' integration, PayU sandbox credentials and Stripe test keys. Always in development and
// tests; anywhere else (production, or an unknown ENVIRONMENT) only when the operator set
// ALLOW_TEST_PAYMENTS = "true", which only a staging deployment does. Pure: no crypto, no D1.
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { isDevelopment, type Env } from '#app/utils/env.server.ts'

export type PaymentModeEnv = Pick<Env, 'ENVIRONMENT' | 'ALLOW_TEST_PAYMENTS'>

/** True when test payments may be connected, offered and confirmed in this deployment. */
export function testPaymentsAllowed(env: PaymentModeEnv): boolean {
  return isDevelopment(env) || env.ALLOW_TEST_PAYMENTS === 'true'
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
