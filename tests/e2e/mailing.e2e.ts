// Mailchimp (issue 9 item 3) in Chromium, end to end through the queue: the owner of code-academy
// connects Mailchimp (the dev peer's key and audience), a visitor leaves the lead form on the demo
// sales page with consent, the mail worker subscribes them through coursefront-mailing, and the
// member shows as subscribed in the page's table. Disconnects at the end (e2e runs share one
// database).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, logIn, snap, subdomain, unique, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const PAGE = '/home/integrations/mailchimp'
const PEER_KEY = 'c0ffee00c0ffee00c0ffee00c0ffee00-us21'
const PEER_LIST = 'c0de000001'

async function disconnect(page: Page) {
  const form = page.locator('[data-mailing-disconnect]')
  await form.locator('[name="confirm"]').fill('DELETE')
  await form.getByRole('button', { name: 'Disconnect Mailchimp' }).click()
  await expectText(page.locator('[data-done="deleted"]'), 'Integration deleted')
}

/** The member's row once the queue has delivered the job (reloading, up to 60 s), or a failure naming what the table shows. */
async function waitForMember(page: Page, email: string) {
  const row = page.locator(`[data-mailing-member="${email}"]`)
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    if ((await row.count()) > 0 && (await row.getAttribute('data-status')) === 'subscribed') return row
    await page.waitForTimeout(1000)
    await visit(page, url(host, PAGE))
  }
  const seen = await page.locator('[data-mailing-member]').evaluateAll((els) => els.map((el) => `${el.getAttribute('data-mailing-member')}:${el.getAttribute('data-status')}`))
  assert.fail(`${email} was not subscribed; the table shows ${JSON.stringify(seen)}`)
}

browserTest('mailchimp: the owner connects, a consenting lead is subscribed through the queue, then disconnects', async ({ page, newContext }) => {
  const owner = demoUser(school, 'owner')
  await logIn(page, host, owner.email, owner.password)
  await page.waitForURL(/\/home/)
  await visit(page, url(host, PAGE))
  // A run that stopped half-way left it connected: start clean.
  if ((await page.locator('[data-mailing-disconnect]').count()) > 0) await disconnect(page)

  const connect = page.locator('[data-mailing-connect]')
  // An audience without FNAME is refused, saying why.
  await connect.getByLabel('API key').fill(PEER_KEY)
  await connect.getByLabel('List (audience) id').fill('c0de000002')
  await connect.getByRole('button', { name: 'Connect Mailchimp' }).click()
  await expectText(page.locator('[data-mailing-connect]'), /This list has no FNAME merge tag/)

  await connect.getByLabel('API key').fill(PEER_KEY)
  await connect.getByLabel('List (audience) id').fill(PEER_LIST)
  assert.ok(await connect.getByLabel('Subscribe leads who consented in a lead form').isChecked())
  await connect.getByRole('button', { name: 'Connect Mailchimp' }).click()
  await expectText(page.locator('[data-done="created"]'), 'Integration created')
  await expectText(page.locator('[data-mailing-key]'), '…ee00-us21')
  assert.equal(await page.getByText(PEER_KEY).count(), 0, 'the key is never shown again in full')

  // A visitor leaves the lead form on the demo sales page, with consent.
  const visitor = await (await newContext({ ownClientIp: true })).newPage()
  await visit(visitor, url(host, '/p/offer'))
  const block = '#block-demo-code-academy-lead_form'
  const form = visitor.locator(`${block} form`)
  await visitor.locator(`${block} form[data-hydrated]`).waitFor()
  const email = `${unique('mailchimp')}@example.com`
  await form.getByLabel('First name').fill('Mia')
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('I agree to receive the newsletter').check()
  await form.getByRole('button', { name: 'Send me the free lesson' }).click()
  await expectText(visitor.locator(`${block} [data-lead-success]`).getByRole('heading'), 'Thank you')

  // The owner sees the member subscribed once the mail worker has run the job.
  await visit(page, url(host, PAGE))
  const row = await waitForMember(page, email)
  await expectText(row, /Lead/)
  await expectText(row, /Subscribed/)
  await snap(page, 'mailchimp-members')

  await disconnect(page)
  await expectText(page.locator('[data-mailing-connect]'), /Connect Mailchimp/)
})
