// Promo codes in /home (issue 8 item 2; seed 001 §3, §8) in Chromium, on the demo school: the owner
// creates a code, is refused a duplicate ('Code has to be unique', any letter case) and an end date
// before the start ('End date is before the start date'), edits it, checks it through
// POST /json/promo-code (the promo_code cookie is readable by the page's scripts), and deletes it
// after 'Are you sure?'. The create form also works without JavaScript.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, fieldError, logIn, snap, subdomain, unique, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const owner = demoUser(school, 'owner')

const createForm = (page: Page) => page.locator('form[data-promo-create]')
const row = (page: Page, code: string) => page.locator(`[data-promo-row="${code}"]`)

async function fillCreate(page: Page, fields: { code: string; kind?: 'percent' | 'fixed'; value: string; startsAt?: string; endsAt?: string; usageLimit?: string }) {
  const form = createForm(page)
  await form.locator('[name="code"]').fill(fields.code)
  await form.locator('[name="kind"]').selectOption(fields.kind ?? 'percent')
  await form.locator('[name="value"]').fill(fields.value)
  await form.locator('[name="startsAt"]').fill(fields.startsAt ?? '')
  await form.locator('[name="endsAt"]').fill(fields.endsAt ?? '')
  await form.locator('[name="usageLimit"]').fill(fields.usageLimit ?? '-1')
  await form.locator('button[type="submit"]').click()
}

browserTest('the owner creates a promo code, is refused a duplicate and a bad date range, edits and deletes it', async ({ page }) => {
  await logIn(page, host, owner.email, owner.password)
  await page.waitForURL(/\/home/)
  await visit(page, url(host, '/home/promo-codes'))
  await expectText(page.locator('main h1').first(), 'Promo codes')

  const code = unique('e2e').toUpperCase().replace(/[^A-Z0-9-]/g, '').slice(0, 40)
  await fillCreate(page, { code: code.toLowerCase(), value: '15', usageLimit: '5' })
  await expectUrl(page, host, '/home/promo-codes')
  await page.locator('[data-done="created"]').waitFor()
  await row(page, code).waitFor()
  await expectText(row(page, code).locator('[data-promo-discount]'), '15%')
  await expectText(row(page, code).locator('[data-promo-used]'), '0 / 5')
  await expectText(row(page, code).locator('[data-promo-status]'), 'Active')
  await snap(page, 'promo-codes-list')

  // The same code in another letter case: refused, nothing written.
  await fillCreate(page, { code: code.toLowerCase(), value: '10' })
  await expectText(fieldError(page, 'code'), 'Code has to be unique')
  assert.equal(await createForm(page).locator('[name="code"]').inputValue(), code.toLowerCase(), 'the typed code is kept')
  assert.equal(await row(page, code).count(), 1)

  // End before start.
  const other = `${code.slice(0, 36)}-B`
  await fillCreate(page, { code: other, kind: 'fixed', value: '20', startsAt: '2026-06-10', endsAt: '2026-06-01' })
  await expectText(fieldError(page, 'endsAt'), 'End date is before the start date')
  assert.equal(await row(page, other).count(), 0, 'nothing written on bad input')

  // The checkout call: valid on the demo course, and the cookie the countdown widget can clear.
  const answer = await page.evaluate(async (typed) => {
    const res = await fetch('/json/promo-code', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: typed, product: 'javascript-foundations' }) })
    return { status: res.status, body: (await res.json()) as { valid: boolean; code: string; breakdown: { discount: number; subtotal: number } }, cookie: document.cookie }
  }, code.toLowerCase())
  assert.equal(answer.status, 200)
  assert.equal(answer.body.valid, true)
  assert.equal(answer.body.code, code)
  assert.equal(answer.body.breakdown.discount, Math.round(answer.body.breakdown.subtotal * 0.15))
  assert.match(answer.cookie, new RegExp(`promo_code=${code}`))
  const wrong = await page.evaluate(async () => {
    const res = await fetch('/json/promo-code', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code: 'NO-SUCH-CODE', product: 'javascript-foundations' }) })
    return { status: res.status, body: (await res.json()) as unknown }
  })
  assert.deepEqual(wrong, { status: 422, body: { valid: false, message: 'Invalid coupon code' } })

  // Edit: a fixed amount.
  await row(page, code).getByRole('link', { name: 'Edit' }).click()
  await page.waitForURL(/\/home\/promo-codes\/[^/?]+$/)
  const edit = page.locator('form[data-promo-edit]')
  await edit.locator('[name="kind"]').selectOption('fixed')
  await edit.locator('[name="value"]').fill('19.99')
  await edit.locator('button[type="submit"]').click()
  await page.locator('[data-done]').waitFor()
  assert.equal(await edit.locator('[name="value"]').inputValue(), '19.99')

  // Delete: refused without confirming, then done.
  const del = page.locator('form[data-promo-delete]')
  await expectText(del, 'Are you sure?')
  await del.getByRole('button', { name: 'Delete code' }).click()
  await expectText(fieldError(page, 'confirm'), 'Tick the box to confirm')
  await del.getByRole('checkbox').check()
  await del.getByRole('button', { name: 'Delete code' }).click()
  await expectUrl(page, host, '/home/promo-codes')
  await page.locator('[data-done="deleted"]').waitFor()
  assert.equal(await row(page, code).count(), 0)
})

browserTest(
  'the promo code form works without JavaScript',
  async ({ page }) => {
    await logIn(page, host, owner.email, owner.password)
    await page.waitForURL(/\/home/)
    await visit(page, url(host, '/home/promo-codes'))
    const code = unique('nojs').toUpperCase().replace(/[^A-Z0-9-]/g, '').slice(0, 40)
    await fillCreate(page, { code, value: '5' })
    await expectText(page.locator('[data-done]'), 'Promo code created')
    await row(page, code).waitFor()
    await fillCreate(page, { code, value: '5' })
    await expectText(fieldError(page, 'code'), 'Code has to be unique')
    // Clean up through the edit page's confirmed delete.
    await row(page, code).getByRole('link', { name: 'Edit' }).click()
    const del = page.locator('form[data-promo-delete]')
    await del.getByRole('checkbox').check()
    await del.getByRole('button', { name: 'Delete code' }).click()
    await page.locator('[data-done]').waitFor()
    assert.equal(await row(page, code).count(), 0)
  },
  { javaScriptEnabled: false },
)
