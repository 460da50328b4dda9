// Invoicing in Chromium (issue 9 item 2): the owner connects Fakturownia (the dev peer's account;
// a wrong token is refused first, a second system is refused as a duplicate), a visitor buys with
// the test provider, and the sale's transaction shows the invoice issued with its number once the
// invoicing worker has been through the queue. The integration is taken back at the end (e2e runs
// share one database).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, choosePayment, demoSchool, demoUser, expectText, expectUrl, logIn, snap, subdomain, unique, url, visit } from './support.ts'

const academy = demoSchool('code-academy')
const HOST = subdomain(academy.slug)
const FAKTUROWNIA = { account: 'coursefront-dev', apiToken: 'coursefront_dev_fakturownia_token_0000' }

async function connect(page: Page, provider: 'fakturownia' | 'infakt', fields: Record<string, string>) {
  const form = page.locator(`[data-integration-form="${provider}"] form`)
  for (const [name, value] of Object.entries(fields)) await form.locator(`[name="${name}"]`).fill(value)
  await form.locator('button[type="submit"]').click()
}

async function removeIntegration(page: Page) {
  await visit(page, url(HOST, '/home/integrations'))
  const manage = page.locator('[data-integration="fakturownia"] a')
  if ((await manage.count()) === 0) return
  await manage.click()
  await page.locator('form[data-integration-delete] [name="confirm"]').fill('DELETE')
  await page.locator('form[data-integration-delete] button[type="submit"]').click()
  await expectUrl(page, HOST, '/home/integrations')
  await expectText(page.locator('[data-done="deleted"]'), 'Integration deleted')
}

browserTest('the owner connects Fakturownia; a sale gets its invoice issued, with the number on the transaction', async ({ page, newContext }) => {
  const owner = demoUser(academy, 'owner')
  await logIn(page, HOST, owner.email, owner.password)
  await expectUrl(page, HOST, '/home')
  try {
    await visit(page, url(HOST, '/home/integrations'))
    await expectText(page.locator('[data-integrations-empty]'), 'No invoicing system connected yet.')
    // The connection is tested first: a wrong token is refused and nothing is saved.
    await connect(page, 'fakturownia', { account: FAKTUROWNIA.account, apiToken: 'not-the-token' })
    await expectText(page.locator('[data-integration-form="fakturownia"] [data-field-error="apiToken"]'), 'Fakturownia refused these credentials.')
    assert.equal(await page.locator('[data-integration="fakturownia"]').count(), 0)
    await connect(page, 'fakturownia', FAKTUROWNIA)
    await expectUrl(page, HOST, '/home/integrations')
    await expectText(page.locator('[data-done="created"]'), 'Integration created')
    await expectText(page.locator('[data-integration="fakturownia"]'), 'coursefront-dev · …0000')
    assert.equal((await page.content()).includes(FAKTUROWNIA.apiToken), false, 'the token is never shown again')
    await page.locator('[data-integration="fakturownia"] a').click()
    await page.locator('form[data-integration-test] button').click()
    await expectText(page.locator('[data-test-result="ok"]'), 'Connection works: Fakturownia accepted the credentials.')
    await snap(page, 'integration')

    // A visitor buys with the test provider.
    const buyer = await (await newContext()).newPage()
    const email = `${unique('ivy')}@example.com`
    await visit(buyer, url(HOST, '/starter-bundle/checkout'))
    await buyer.locator('form [name="name"]').fill('Ivy Invoiced')
    await buyer.locator('form [name="email"]').fill(email)
    await buyer.locator('form [name="password"]').fill('ivy-pass-12')
    await buyer.locator('form [name="terms"]').check()
    await buyer.locator('form [name="waiver"]').check()
    await choosePayment(buyer, 'test')
    await buyer.locator('[data-checkout-submit]').click()
    await buyer.locator('[data-test-payment]').waitFor()
    await buyer.getByRole('button', { name: 'Pay', exact: true }).click()
    await expectText(buyer.locator('[data-pending-result="success"]'), 'Payment successful')

    // The invoicing worker takes the sale from the queue; the list shows the invoice once issued.
    const row = page.locator('[data-transaction]', { hasText: email })
    let status = ''
    for (let i = 0; i < 20 && status !== 'issued'; i++) {
      await visit(page, url(HOST, '/home/transactions'))
      status = (await row.locator('[data-invoice-status]').getAttribute('data-invoice-status')) ?? ''
      if (status !== 'issued') await page.waitForTimeout(1000)
    }
    assert.equal(status, 'issued')
    await row.locator('a').last().click()
    await page.waitForURL(/\/home\/transactions\/[a-z0-9]+$/)
    await expectText(page.locator('[data-invoice-status]').first(), 'Issued')
    await expectText(page.locator('[data-invoice-panel] [data-invoice-state]'), 'Issued')
    await expectText(page.locator('[data-invoice-panel] [data-invoice-number]'), /^FV \d+\/\d+\/\d{4}$/)
    assert.equal(await page.locator('[data-invoice-retry]').count(), 0)
    await snap(page, 'transaction-invoice')
  } finally {
    await removeIntegration(page)
  }
})
