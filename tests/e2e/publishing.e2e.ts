// Publish guards (issue 23 item 3) in Chromium: the owner cannot publish a course with no
// published lecture (the editor warns first, the server says why), publishes a lecture with the
// lecture form's switch and then the course, previews lectures as a student (drafts marked) and
// opens the public page from the builder; a buyer of a course with nothing published sees
// "content coming soon" instead of the old loop between /{slug}/watch and /{slug}.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, buyAsNewVisitor, expectText, expectUrl, heading, newSchool, screenshotSet, signUp, subdomain, unique, url, visit } from './support.ts'

const status = (page: Page) => page.locator('[role="status"]')

async function addTextLecture(page: Page, title: string, publish: boolean) {
  await page.getByRole('link', { name: 'Add lecture to Start' }).click()
  await page.waitForURL(/\/lectures\/create$/)
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.getByLabel('Type', { exact: true }).selectOption('text')
  await page.locator('textarea[name="body"]').fill(`${title} body`)
  // The switch starts as a draft and says so; turning it on says "Published".
  await expectText(page.locator('[data-publish-state]'), 'Draft')
  if (publish) {
    await page.getByRole('switch', { name: 'Published' }).check()
    await expectText(page.locator('[data-publish-state]'), 'Published')
    await expectText(page.locator('#lecture-published-hint'), 'Students with access can watch this lecture.')
  }
  await page.getByRole('button', { name: 'Create lecture' }).click()
  await expectText(status(page), 'Created')
  await page.getByRole('link', { name: /^← Curriculum of/ }).click()
  await page.waitForURL(/\/sections$/)
}

browserTest('an empty course cannot be published; a lecture and the course can; previews work; a buyer of an emptied course sees "coming soon"', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')

  // A paid course (two-step form), not published yet.
  const title = unique('Sourdough')
  await visit(page, url(host, '/home/products/new?kind=course'))
  await page.locator('form[data-step="1"] [name="title"]').fill(title)
  await page.getByRole('button', { name: 'Continue' }).click()
  await page.locator('form[data-step="2"] [name="price"]').fill('29')
  await page.locator('form[data-step="2"]').getByRole('button', { name: 'Create product' }).click()
  await page.waitForURL(/\/home\/products\/[a-z2-7]+$/)
  const courseId = new URL(page.url()).pathname.split('/').pop()!
  const slug = await page.locator('form [name="slug"]').inputValue()

  // The editor warns next to Publish, and the server refuses it with the reason.
  await expectText(page.locator('[data-publish-note="needs_lecture"]'), 'This course has no published lecture yet.')
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await expectText(page.locator('[data-field-error="publish"]'), 'Publish at least one lecture before publishing the course')
  assert.equal(await page.getByRole('button', { name: 'Publish', exact: true }).getAttribute('aria-invalid'), 'true')
  await visit(page, url(host, `/${slug}`), 404)

  // The curriculum: one published lecture (the switch) and one draft.
  await visit(page, url(host, `/home/courses/${courseId}/sections`))
  await expectText(page.locator('[data-course-previews]'), 'The public page appears once the course is published.')
  await page.getByLabel('Section title').fill('Start')
  await page.getByRole('button', { name: 'Add section' }).click()
  await expectText(status(page), 'Created')
  await addTextLecture(page, 'Feeding the starter', true)
  await addTextLecture(page, 'Shaping later', false)
  await expectText(page.locator('[data-lecture="Feeding the starter"] [data-lecture-state]'), 'Published')
  await expectText(page.locator('[data-lecture="Shaping later"] [data-lecture-state]'), 'Draft')

  // Preview as student: the owner sees the draft in the player, marked as a draft.
  await page.getByRole('link', { name: 'Preview as student: Shaping later' }).click()
  await page.waitForURL(new RegExp(`/${slug}/watch/[a-z2-7]+$`))
  await expectText(page.locator('#lecture-title'), 'Shaping later')
  await page.locator('[data-draft-badge]').waitFor()
  await page.goBack()
  await page.getByRole('link', { name: 'Preview as student: Feeding the starter' }).click()
  await expectText(page.locator('#lecture-title'), 'Feeding the starter')
  // Still a preview while the course itself is a draft.
  await page.locator('[data-draft-badge]').waitFor()

  // Now the course can be published.
  await visit(page, url(host, `/home/products/${courseId}`))
  assert.equal(await page.locator('[data-publish-note]').count(), 0)
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.locator('[data-done="published"]').waitFor()

  // The builder: its review screenshots, then "View public page" on the school's own origin.
  await visit(page, url(host, `/home/courses/${courseId}/sections`))
  await screenshotSet(page, 'course-builder')
  await page.getByRole('link', { name: 'View public page' }).click()
  await expectUrl(page, host, `/${slug}`)
  await expectText(heading(page), title)

  // A buyer pays; then the owner unpublishes the only published lecture (allowed, with a warning).
  const buyer = await (await newContext()).newPage()
  await buyAsNewVisitor(buyer, host, slug, { name: 'Bea Buyer', email: `${unique('bea')}@example.com`, password: 'buyer-pass-123' }, 'en')
  await visit(page, url(host, `/home/courses/${courseId}/sections`))
  await page.locator('[data-lecture="Feeding the starter"] a[href*="/lectures/"]').first().click()
  await page.getByRole('switch', { name: 'Published' }).uncheck()
  await expectText(page.locator('[data-publish-state]'), 'Draft')
  await page.locator('[data-lecture-form] button[type="submit"]').click()
  await expectText(page.locator('[data-done="saved"]'), 'buyers see “Content coming soon”')

  // The buyer: "content coming soon" (200), no redirect back to the course page, a way to the panel.
  await visit(buyer, url(host, `/${slug}/watch`))
  await expectUrl(buyer, host, `/${slug}/watch`)
  const soon = buyer.locator('[data-coming-soon]')
  await expectText(soon, 'Content coming soon')
  await expectText(soon.locator('h1'), title)
  await expectText(soon, 'will appear here as soon as the author publishes them')
  await buyer.getByRole('link', { name: 'Back to my courses' }).click()
  await expectUrl(buyer, host, '/panel')
})
