// Issue 7 items 5 and 7 in Code Academy: the site survey modal on /panel (postponed 24 h by
// 'Remind me later' and back after that; a required answer refused with its error, then accepted),
// and a student's review from the player page approved by the owner and shown in the storefront
// reviews block. Fresh students each time, so other flows' demo students are left alone.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, logIn, register, snap, subdomain, unique, url, visit } from './support.ts'

const academy = demoSchool('code-academy')
const HOST = subdomain(academy.slug)
const owner = demoUser(academy, 'owner')
const RECOMMEND = 'how-likely-are-you-to-recommend-us'

async function newStudent(page: Page, name: string) {
  const email = `${unique('eng')}@example.com`
  await register(page, HOST, { name, email, password: 'student-pass-1' })
  await expectUrl(page, HOST, '/panel')
  return email
}

const survey = (page: Page) => page.locator('dialog[data-site-survey]')

async function surveyId(page: Page) {
  const id = await survey(page).getAttribute('data-site-survey')
  assert.ok(id)
  return id
}

browserTest('site survey: Remind me later hides it for 24 h, then it comes back; closing postpones too', async ({ page }) => {
  const calls: string[] = []
  page.on('request', (req) => {
    if (req.method() === 'POST' && /^\/survey\//.test(new URL(req.url()).pathname)) calls.push(new URL(req.url()).pathname)
  })
  await newStudent(page, 'Paula Postpone')
  await survey(page).waitFor({ state: 'visible' })
  await expectText(survey(page).locator('h2'), 'How are we doing?')
  // The markdown description is rendered, the required radio question is marked.
  assert.equal(await survey(page).locator('strong').first().innerText(), 'Code Academy')
  const id = await surveyId(page)
  await page.setViewportSize({ width: 375, height: 740 })
  await snap(page, 'site-survey-375')
  await page.setViewportSize({ width: 1280, height: 900 })

  await survey(page).getByRole('button', { name: 'Remind me later' }).click()
  await survey(page).waitFor({ state: 'detached' })
  const postponedAt = Number(await page.evaluate((key) => localStorage.getItem(key), `survey_${id}_postponed_at`))
  assert.ok(Math.abs(Date.now() - postponedAt) < 60_000, 'postponement time stored')

  // Within 24 h: not shown, and not even asked for.
  const before = calls.length
  await page.reload()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(500)
  assert.equal(await survey(page).count(), 0)
  assert.equal(calls.length, before, 'no survey call while postponed')

  // 24 h later (the stored time moved back): it is shown again.
  await page.evaluate((key) => localStorage.setItem(key, String(Date.now() - 24 * 60 * 60 * 1000 - 60_000)), `survey_${id}_postponed_at`)
  await page.reload()
  await survey(page).waitFor({ state: 'visible' })
  assert.ok(calls.includes(`/survey/${id}`))

  // Escape (the dialog's close) postpones as well.
  await page.keyboard.press('Escape')
  await survey(page).waitFor({ state: 'detached' })
  const again = Number(await page.evaluate((key) => localStorage.getItem(key), `survey_${id}_postponed_at`))
  assert.ok(Date.now() - again < 60_000)
  await page.reload()
  await page.waitForLoadState('networkidle')
  assert.equal(await survey(page).count(), 0)
})

browserTest('site survey: a missing required answer is refused with its error, then the answer is stored once', async ({ page, newContext }) => {
  const email = await newStudent(page, 'Simon Survey')
  await survey(page).waitFor({ state: 'visible' })
  const id = await surveyId(page)
  const submits: Array<Record<string, unknown>> = []
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/survey/submit') submits.push(JSON.parse(req.postData() ?? '{}') as Record<string, unknown>)
  })
  await survey(page).locator('[data-survey-question="what-should-we-teach-next"] textarea').fill('Web components')
  await survey(page).getByRole('button', { name: 'Send' }).click()
  await expectText(survey(page).locator(`[data-survey-error="${RECOMMEND}"]`), 'This field is required')
  assert.equal(await survey(page).locator(`fieldset[data-survey-question="${RECOMMEND}"]`).getAttribute('aria-invalid'), 'true')
  assert.deepEqual(submits[0], { survey_id: id, response: { 'what-should-we-teach-next': 'Web components' } })

  await survey(page).getByRole('radio', { name: 'Very likely' }).check()
  assert.equal(await survey(page).locator(`[data-survey-error="${RECOMMEND}"]`).count(), 0, 'the error goes once answered')
  await survey(page).getByRole('button', { name: 'Send' }).click()
  await expectText(survey(page).locator('[data-survey-done]'), 'Thank you for your answers!')
  assert.deepEqual(submits[1], { survey_id: id, response: { 'what-should-we-teach-next': 'Web components', [RECOMMEND]: 'very-likely' } })
  assert.ok(Number(await page.evaluate((key) => localStorage.getItem(key), `survey_${id}_responded_at`)) > 0)
  await survey(page).locator('[data-survey-done]').getByRole('button', { name: 'Close' }).click()

  // Answered: not shown again — not even with the browser's storage cleared (the server knows).
  await page.evaluate(() => localStorage.clear())
  await page.reload()
  await page.waitForLoadState('networkidle')
  await page.waitForTimeout(500)
  assert.equal(await survey(page).count(), 0)

  // The owner sees the answer in the survey's responses table.
  const ownerPage = await (await newContext()).newPage()
  await logIn(ownerPage, HOST, owner.email, owner.password)
  await expectUrl(ownerPage, HOST, '/home')
  await visit(ownerPage, url(HOST, '/home/surveys'))
  await ownerPage.locator(`[data-survey-row="${id}"] a`).click()
  await expectUrl(ownerPage, HOST, `/home/surveys/${id}`)
  const row = ownerPage.locator(`[data-survey-response="${email}"]`)
  await expectText(row, /Simon Survey.*very-likely.*Web components/s)
  await snap(ownerPage, 'home-survey')
})

browserTest('a student reviews the course on the player page; the owner approves it; it shows in the reviews block', async ({ page, newContext }) => {
  const text = `Clear and practical ${unique('r')}`
  const email = await newStudent(page, 'Rita Reviewer')
  // Dismiss the site survey so it does not cover the page.
  await survey(page).waitFor({ state: 'visible' })
  await survey(page).getByRole('button', { name: 'Remind me later' }).click()

  // The owner grants the course.
  const ownerPage = await (await newContext()).newPage()
  await logIn(ownerPage, HOST, owner.email, owner.password)
  await expectUrl(ownerPage, HOST, '/home')
  await visit(ownerPage, url(HOST, `/home/students?q=${encodeURIComponent(email)}`))
  await ownerPage.locator(`[data-student-email="${email}"] a`).first().click()
  const grant = ownerPage.locator('form[data-grant]')
  await grant.locator('[name="productId"]').selectOption({ label: 'JavaScript Foundations (online course)' })
  await grant.locator('[name="reason"]').fill('Review test')
  await grant.getByRole('button', { name: 'Grant access' }).click()
  await expectText(ownerPage.getByRole('status'), 'Access granted')

  // The student rates it on the player page.
  await visit(page, url(HOST, '/javascript-foundations/watch'))
  const form = page.locator('[data-course-review-form="javascript-foundations"]')
  await form.scrollIntoViewIfNeeded()
  await form.getByRole('button', { name: 'Send review' }).click()
  // Browser validation keeps the rating required; nothing was sent.
  assert.equal(await form.getAttribute('data-review-status'), 'none')
  await form.getByRole('radio', { name: 'Recommended', exact: true }).check()
  await form.getByLabel('Your review (optional)').fill(text)
  await expectText(form.locator('#course-review-body-count'), `${text.length} / 2000 characters`)
  await form.getByRole('button', { name: 'Send review' }).click()
  await expectText(form.getByRole('status'), 'Thank you! Your review is awaiting approval.')
  assert.equal(await form.getAttribute('data-review-status'), 'pending')
  // It survives a reload.
  await page.reload()
  await expectText(page.locator('[data-course-review-form] [role="status"]'), 'awaiting approval')

  // The owner has a notification and approves the review.
  await visit(ownerPage, url(HOST, '/home/notifications'))
  await expectText(ownerPage.locator('[data-notification][data-read="no"]'), 'Rita reviewed a course')
  await visit(ownerPage, url(HOST, '/home/reviews?status=pending'))
  const item = ownerPage.locator('[data-admin-review]').filter({ hasText: text })
  await expectText(item, /Recommended.*Pending/s)
  await expectText(item, /Rita/)
  await item.getByRole('button', { name: 'Approve', exact: true }).click()
  // It leaves the pending list and is listed as approved.
  await item.waitFor({ state: 'detached' })
  await visit(ownerPage, url(HOST, '/home/reviews?status=approved'))
  await expectText(ownerPage.locator('[data-admin-review]').filter({ hasText: text }).locator('[data-status-badge]'), 'Approved')
  await snap(ownerPage, 'home-reviews')

  // The storefront reviews block lists it (newest first).
  const visitor = await (await newContext()).newPage()
  await visit(visitor, url(HOST, '/p/offer'))
  const block = visitor.locator('#block-demo-code-academy-reviews')
  await block.scrollIntoViewIfNeeded()
  await expectText(block.locator('[data-review]').first(), new RegExp(`Rita.*Recommended.*${text}`, 's'))

  // And the student sees the approval.
  await page.reload()
  await expectText(page.locator('[data-course-review-form] [role="status"]'), 'Your review has been approved')

  // The owner takes it back: it leaves the storefront (and the demo block is as seeded again for the reviews test).
  await visit(ownerPage, url(HOST, '/home/reviews?status=approved'))
  const approved = ownerPage.locator('[data-admin-review]').filter({ hasText: text })
  await approved.getByRole('button', { name: 'Disapprove', exact: true }).click()
  await approved.waitFor({ state: 'detached' })
  await visit(visitor, url(HOST, '/p/offer'))
  await block.scrollIntoViewIfNeeded()
  await block.locator('[data-review]').first().waitFor()
  assert.equal(await block.locator('[data-review]').filter({ hasText: text }).count(), 0)
})
