// The payment providers built as modules (issue 25). PayU, Stripe and the test provider predate
// the module shape and are wired in app/payments/registry.server.ts directly.
import type { PaymentProvider } from '#app/db/schema.server.ts'
import { braintreeModule } from './braintree/module.server.ts'
import { p24Module } from './p24/module.server.ts'
import { paylaneModule } from './paylane/module.server.ts'
import { paypalModule } from './paypal/module.server.ts'
import type { ProviderModule } from './provider-module.server.ts'
import { tpayModule } from './tpay/module.server.ts'

export const PROVIDER_MODULES = {
  p24: p24Module,
  tpay: tpayModule,
  paypal: paypalModule,
  braintree: braintreeModule,
  paylane: paylaneModule,
} as const satisfies Partial<Record<PaymentProvider, ProviderModule>>

export type ModuleProvider = keyof typeof PROVIDER_MODULES
export const MODULE_PROVIDERS = Object.keys(PROVIDER_MODULES) as ModuleProvider[]

export function providerModule(provider: string): ProviderModule | null {
  return Object.hasOwn(PROVIDER_MODULES, provider) ? PROVIDER_MODULES[provider as ModuleProvider] : null
}
