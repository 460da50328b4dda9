// The ProviderContext a module's calls run with (issue 25): in development every provider API goes
// to the dev peers through the DEV_PEERS binding, at the `{PROVIDER}_API_URL` of wrangler.toml;
// anywhere else to the provider's own URL over the network.
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { isDevelopment, type Env } from '#app/utils/env.server.ts'
import { testPaymentsAllowed } from '../payment-mode.server.ts'
import type { ProviderContext, ProviderFetch } from './provider-module.server.ts'

/** The development variable naming a provider's dev peer, e.g. P24_API_URL. */
export const apiUrlVariable = (provider: PaymentProvider | 'gus' | 'vies') => `${provider.toUpperCase()}_API_URL`

export function providerContext(env: Env, provider: PaymentProvider | 'gus' | 'vies'): ProviderContext {
  const development = isDevelopment(env)
  const peers = env.DEV_PEERS
  const peerUrl = development ? (env as unknown as Record<string, string | undefined>)[apiUrlVariable(provider)] : undefined
  const fetchFn: ProviderFetch =
    development && peers ? (input, init) => peers.fetch(new Request(input instanceof Request ? input.url : String(input), init)) : (input, init) => fetch(input, init)
  return {
    env,
    fetch: fetchFn,
    apiBase: (production, sandbox, useSandbox) => (peerUrl ? peerUrl : useSandbox && sandbox ? sandbox : production).replace(/\/+$/, ''),
    testPaymentsAllowed: testPaymentsAllowed(env),
  }
}
