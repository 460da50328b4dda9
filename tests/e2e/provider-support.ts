// Shared by the provider e2e files (issue 25): the dev peers' development accounts and the owner's
// "connect a provider" step in the payment settings.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { url, visit } from './support.ts'

export type Provider = 'p24' | 'tpay' | 'paypal' | 'braintree' | 'paylane'

/** The dev peers' development accounts (the exported constants of workers/dev-peers/src/<p>.ts). */
export const CREDENTIALS: Record<Provider, Record<string, string>> = {
  p24: { merchantId: '100001', posId: '100001', apiKey: 'coursefront_dev_p24_reports_key_01', crc: 'cfdevp24crc00001' },
  tpay: { clientId: '1010-c0a5e7d1f2b34a59', clientSecret: 'coursefront_dev_tpay_secret_0000000000000000000000', merchantId: '1010' },
  paypal: { clientId: 'AcoursefrontDevPaypalClient0000000000000001', clientSecret: 'EcoursefrontDevPaypalSecret00000000000000001' },
  braintree: { merchantId: 'coursefrontdev', publicKey: 'cf_dev_braintree_public', privateKey: 'cf_dev_braintree_private_key_00000000', merchantAccountId: 'coursefront_pln' },
  paylane: {
    apiLogin: 'coursefront_dev',
    apiPassword: 'coursefront_dev_paylane_password_0000',
    publicApiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
    notificationToken: 'coursefront_dev_paylane_notify_token_00',
  },
}

const SECRET_FIELD: Record<Provider, string> = { p24: 'crc', tpay: 'clientSecret', paypal: 'clientSecret', braintree: 'privateKey', paylane: 'apiPassword' }

/** The owner connects `provider` with the peer's development credentials (test mode, PLN). */
export async function connectProvider(page: Page, host: string, provider: Provider) {
  await visit(page, url(host, '/home/settings/payments'))
  const form = page.locator(`[data-payment-form="${provider}"]`)
  for (const [name, value] of Object.entries(CREDENTIALS[provider])) await form.locator(`[name="${name}"]`).fill(value)
  await form.locator('[name="currency"]').selectOption('PLN')
  const sandbox = form.locator('[name="sandbox"]')
  if (await sandbox.count()) await sandbox.selectOption('yes')
  await form.getByRole('button', { name: 'Connect' }).click()
  await page.locator('[data-done="created"]').waitFor()
  await page.locator(`[data-payment-integration="${provider}-PLN"]`).waitFor()
  assert.equal((await page.content()).includes(CREDENTIALS[provider][SECRET_FIELD[provider]]!), false, 'the secret is never shown back')
}
