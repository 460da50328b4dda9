// Set-up guides per provider (issue 25): docs/payments/{provider}.md, bundled at build time and
// shown to the school's staff at /home/settings/payments/guide?provider={provider}, linked from the
// provider's form. One source for the repository's docs and the product's help page.
import type { PaymentProvider } from '#app/db/schema.server.ts'

const files = import.meta.glob('/docs/payments/*.md', { query: '?raw', import: 'default', eager: true }) as Record<string, string>

const GUIDES = new Map(Object.entries(files).map(([path, text]) => [path.replace(/^.*\/([a-z0-9-]+)\.md$/, '$1'), text]))

export const guideProviders = (): PaymentProvider[] => [...GUIDES.keys()] as PaymentProvider[]

export function paymentGuide(provider: string): string | null {
  return GUIDES.get(provider) ?? null
}
