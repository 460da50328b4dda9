// Membership billing lifecycle (issue 8 item 6) in Chromium: a student buys the Polish school's
// monthly club with the test provider, puts the declining test card (4000 0000 0000 0002) on file,
// the development trigger runs the renewal a month ahead → at risk (the panel says so) with one
// 'payment problem' email in the dev mail viewer; a good card, the retry a day later → renewed and
// active again; a cancel, then the run after the paid period → ended.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, buyAsNewVisitor, demoSchool, expectText, platformUrl, snap, subdomain, unique, url, visit } from './support.ts'

const kasi = demoSchool('akademia-kasi')
const KASI = subdomain(kasi.slug)
const CLUB = 'klub-akademii-kasi'
const DAY = 86_400_000

async function buyClub(page: Page, who: string, email: string) {
  await buyAsNewVisitor(page, KASI, CLUB, { name: who, email, password: 'klub-pass-12' }, 'pl')
}

const billing = (page: Page) => page.locator(`[data-panel-membership="${CLUB}"] [data-membership-billing]`)

async function putCard(page: Page, number: string) {
  await visit(page, url(KASI, '/panel'))
  await billing(page).locator('[data-membership-update-card]').click()
  const form = page.locator('[data-card-modal] [data-card-form]')
  await form.waitFor()
  // Enabled once the form's effect has run: click waits for that, typing does not.
  await form.locator('[data-card-number]').click()
  await form.locator('[data-card-number]').pressSequentially(number)
  await form.locator('[data-card-year]').selectOption(String(new Date().getUTCFullYear() + 3))
  await form.locator('[data-card-month]').selectOption('09')
  await form.locator('[data-card-cvv]').fill('123')
  await form.locator('[data-card-save]').click()
  await page.waitForURL(/membership_notice=card_updated/)
}

type Outcome = { membershipId: string; result: string; reason?: string; failedCharges?: number; nextChargeAt?: number | null; emailed?: boolean }

/** The development trigger: renew this membership as if it were `now`. */
async function renew(page: Page, membershipId: string, now: number) {
  const res = await page.request.post(platformUrl('/dev/memberships/renew'), { form: { now: String(now), membership_id: membershipId }, headers: { Origin: new URL(platformUrl()).origin } })
  assert.equal(res.status(), 200)
  return ((await res.json()) as { outcomes: Outcome[] }).outcomes
}

browserTest('a membership renewal fails on a declined card (at risk + email), renews with a new card, and ends after a cancel', async ({ page }) => {
  const email = `${unique('odnowienie')}@example.com`
  await buyClub(page, 'Ewa Odnowienie', email)
  await visit(page, url(KASI, '/panel'))
  await billing(page).waitFor()
  const membershipId = (await billing(page).getAttribute('data-membership-billing'))!
  assert.equal(await billing(page).getAttribute('data-membership-status'), 'active')

  // The declining test card on file; a month and a bit later the renewal is declined.
  await putCard(page, '4000000000000002')
  const t1 = Date.now() + 32 * DAY
  const [declined] = await renew(page, membershipId, t1)
  assert.deepEqual([declined?.result, declined?.reason, declined?.failedCharges, declined?.emailed], ['failed', 'card_declined', 1, true])
  assert.equal(declined?.nextChargeAt, t1 + DAY)
  await visit(page, url(KASI, '/panel'))
  assert.equal(await billing(page).getAttribute('data-membership-status'), 'at_risk')
  await expectText(billing(page), /Problem z płatnością/)
  await snap(page, 'membership-at-risk')

  // One 'payment problem' email, in Polish, whose link leads to the student's panel.
  await visit(page, platformUrl('/dev/mail'))
  const rows = page.locator('tbody tr', { hasText: email })
  await expectText(rows.first(), 'Problem z płatnością: Twoje członkostwo')
  assert.equal(await rows.filter({ hasText: 'Problem z płatnością' }).count(), 1)
  await rows.filter({ hasText: 'Problem z płatnością' }).getByRole('link').click()
  await expectText(page.getByTestId('mail-text'), /Nie udało się pobrać 49,00/)
  assert.equal(await page.locator(`main a[href="${url(KASI, '/panel')}"]`).count() > 0, true)

  // A good card; the retry a day later renews: active again, no second email.
  await putCard(page, '4242424242424242')
  const [renewed] = await renew(page, membershipId, t1 + DAY)
  assert.equal(renewed?.result, 'renewed')
  await visit(page, url(KASI, '/panel'))
  assert.equal(await billing(page).getAttribute('data-membership-status'), 'active')
  await expectText(billing(page).locator('[data-membership-renews]'), /^Odnawia się /)
  await visit(page, platformUrl('/dev/mail'))
  assert.equal(await page.locator('tbody tr', { hasText: email }).filter({ hasText: 'Problem z płatnością' }).count(), 1)

  // Cancelled: nothing is charged any more; after the paid period the run ends it.
  await visit(page, url(KASI, '/panel'))
  await billing(page).locator('[data-membership-cancel]').click()
  await page.locator('[data-cancel-modal] [data-cancel-confirm-input]').fill('CANCEL')
  await page.locator('[data-cancel-modal] [data-cancel-confirm]').click()
  await page.locator('[data-survey-modal] [data-cancel-survey]').waitFor()
  assert.deepEqual(await renew(page, membershipId, t1 + 2 * DAY), [])
  const [ended] = await renew(page, membershipId, t1 + 70 * DAY)
  assert.deepEqual([ended?.result, ended?.reason], ['ended', 'period_over'])
  await visit(page, url(KASI, '/panel'))
  assert.equal(await billing(page).getAttribute('data-membership-status'), 'ended')
  await snap(page, 'membership-ended')
})
