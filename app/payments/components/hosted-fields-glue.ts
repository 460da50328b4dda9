// Each provider's browser glue for its hosted fields (issue 25), loaded only on the card page.
export type HostedFieldsInstance = {
  tokenize(): Promise<{ ok: true; token: string } | { ok: false; reason: 'invalid' | 'unavailable' }>
  teardown(): void
}
type Glue = { mountHostedFields(config: Record<string, unknown>, locale: 'en' | 'pl'): Promise<HostedFieldsInstance> }

export const HOSTED_FIELDS_GLUE: Record<string, () => Promise<Glue>> = {
  braintree: () => import('#app/payments/providers/braintree/hosted-fields.client.ts'),
  paylane: () => import('#app/payments/providers/paylane/hosted-fields.client.ts'),
  payu: () => import('#app/payments/payu-hosted-fields.client.ts'),
}
