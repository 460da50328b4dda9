// The course builder (issue 5 §2) as a creator uses it: a course with 3 sections and 8 lectures
// (video uploaded right in the lecture form, PDF, text), reordered by mouse drag and by keyboard,
// published and duplicated (the products pages, shared UI contract), both in the course list.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, expectText, expectUrl, newSchool, signUp, snap, subdomain, url } from './support.ts'

const PDF = Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\n${' '.repeat(500)}\n%%EOF\n`)
const VIDEO = Buffer.alloc(64 * 1024, 7)

const success = (page: Page) => page.locator('[role="status"]')
const sectionTitles = (page: Page) => page.locator('[data-sortable="sections"] > li').evaluateAll((els) => els.map((el) => el.getAttribute('data-sort-item')))

async function addLecture(page: Page, section: string, title: string, fill: (page: Page) => Promise<void>) {
  await page.getByRole('link', { name: `Add lecture to ${section}` }).click()
  await page.waitForURL(/\/lectures\/create$/)
  await page.getByLabel('Title', { exact: true }).fill(title)
  await fill(page)
  await page.getByRole('button', { name: 'Create lecture' }).click()
  await expectText(success(page), 'Created')
  await page.getByRole('link', { name: /^← Curriculum of/ }).click()
  await page.waitForURL(/\/sections$/)
}

const text = (body: string) => async (page: Page) => {
  await page.getByLabel('Type', { exact: true }).selectOption('text')
  await page.locator('textarea[name="body"]').fill(body)
  // Published, so the course can be published (issue 23: not with nothing to watch).
  await page.locator('input[name="published"]').check()
}

browserTest('a creator builds, reorders, publishes and duplicates a course', async ({ page }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')

  // Create the course through the two-step form (products work, shared contract).
  await page.goto(url(host, '/home/courses'))
  await page.getByRole('link', { name: 'New course' }).click()
  await expectText(page.locator('main'), 'Step 1/2')
  await page.getByLabel('Title', { exact: true }).fill('Bread at home')
  await page.getByRole('button', { name: 'Continue' }).click()
  await expectText(page.locator('main'), 'Step 2/2')
  await page.locator('input[name="isFree"]').check()
  await page.getByRole('button', { name: 'Create product' }).click()
  await page.waitForURL(/\/home\/products\/[a-z0-9]+$/)
  await page.locator('[data-done="created"]').waitFor()
  const courseId = new URL(page.url()).pathname.split('/').pop()!
  await page.getByRole('link', { name: 'Curriculum' }).first().click()
  await expectUrl(page, host, `/home/courses/${courseId}/sections`)

  // Three sections; an empty title is refused with the seed's message.
  await page.getByRole('button', { name: 'Add section' }).click()
  await expectText(page.locator('[data-field-error="title"]'), 'Section title can not be empty')
  for (const title of ['Starter', 'Dough', 'Baking']) {
    await page.getByLabel('Section title').fill(title)
    await page.getByRole('button', { name: 'Add section' }).click()
    await expectText(success(page), 'Created')
    await page.locator(`[data-sort-item="${title}"]`).waitFor()
  }

  // A video lecture: saving without a video is refused, then a video uploaded right in the form.
  await page.getByRole('link', { name: 'Add lecture to Starter' }).click()
  await page.getByLabel('Title', { exact: true }).fill('Welcome')
  await page.getByRole('button', { name: 'Create lecture' }).click()
  await expectText(page.locator('[data-field-error="videoId"]'), 'A video must be uploaded before an episode is saved')
  await page.locator('[data-video-upload] input[type="file"]:not([disabled])').setInputFiles({ name: 'welcome.mp4', mimeType: 'video/mp4', buffer: VIDEO })
  await page.locator('[data-selected-video]').waitFor({ timeout: 20_000 })
  await page.getByLabel('Run time').fill('1:30')
  await page.getByRole('button', { name: 'Create lecture' }).click()
  await expectText(success(page), 'Created')
  await page.getByRole('link', { name: /^← Curriculum of/ }).click()

  // A PDF lecture.
  await addLecture(page, 'Starter', 'Shopping list', async (p) => {
    await p.getByLabel('Type', { exact: true }).selectOption('pdf')
    await p.locator('[data-file-upload="lecture-pdf"] input[type="file"]').setInputFiles({ name: 'shopping.pdf', mimeType: 'application/pdf', buffer: PDF })
    await p.locator('[data-lecture-pdf="shopping.pdf"]').waitFor({ timeout: 15_000 })
  })
  // Six text lectures.
  await addLecture(page, 'Starter', 'Feeding the starter', text('Feed it **daily**.'))
  await addLecture(page, 'Dough', 'Mixing', text('Mix flour and water.'))
  await addLecture(page, 'Dough', 'Folding', text('Fold every 30 minutes.'))
  await addLecture(page, 'Dough', 'Shaping', text('Shape a boule.'))
  await addLecture(page, 'Baking', 'Scoring', text('A sharp blade.'))
  await addLecture(page, 'Baking', 'Oven', text('250 °C with steam.'))
  await page.locator('[data-lecture="Oven"]').waitFor()
  assert.equal(await page.locator('[data-lecture]').count(), 8)
  await snap(page, 'course-builder-curriculum')

  // Mouse: drag "Baking" above "Starter".
  await page.locator('[data-sort-handle="Baking"]').dragTo(page.locator('[data-sort-item="Starter"]'), { targetPosition: { x: 20, y: 5 } })
  await expectText(success(page), 'Order updated')
  assert.deepEqual(await sectionTitles(page), ['Baking', 'Starter', 'Dough'])

  // Keyboard: pick up "Mixing" with Space, move it down twice, drop with Space.
  await page.getByRole('button', { name: 'Reorder Mixing' }).focus()
  await page.keyboard.press('Space')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('ArrowDown')
  await expectText(page.locator('[data-sort-announcement^="lectures-"]'), 'Mixing moved to position 3 of 3.')
  await page.keyboard.press('Space')
  await page.locator('[data-done="order"]').waitFor()
  await expectText(success(page), 'Order updated')
  const dough = page.locator('[data-section="Dough"] [data-lecture]')
  assert.deepEqual(await dough.evaluateAll((els) => els.map((el) => el.getAttribute('data-lecture'))), ['Folding', 'Shaping', 'Mixing'])

  // Escape puts it back and saves nothing.
  await page.getByRole('button', { name: 'Reorder Shaping' }).focus()
  await page.keyboard.press('Space')
  await page.keyboard.press('ArrowUp')
  await page.keyboard.press('Escape')
  await expectText(page.locator('[data-sort-announcement^="lectures-"]'), 'Reordering cancelled, Shaping is back in its place.')
  assert.deepEqual(await dough.evaluateAll((els) => els.map((el) => el.getAttribute('data-lecture'))), ['Folding', 'Shaping', 'Mixing'])

  // Without a pointer: the Move up button is a plain form.
  await page.getByRole('button', { name: 'Move up: Oven' }).click()
  await page.waitForFunction(() => document.querySelector('[data-section="Baking"] [data-lecture]')?.getAttribute('data-lecture') === 'Oven')
  await expectText(success(page), 'Order updated')
  assert.deepEqual(await page.locator('[data-section="Baking"] [data-lecture]').evaluateAll((els) => els.map((el) => el.getAttribute('data-lecture'))), ['Oven', 'Scoring'])

  // Publish and duplicate (products pages), then both courses are in the list.
  await page.goto(url(host, `/home/products/${courseId}`))
  await page.getByRole('button', { name: 'Publish' }).click()
  await page.getByRole('button', { name: 'Unpublish' }).waitFor()
  await page.getByRole('button', { name: 'Duplicate' }).click()
  await page.waitForURL((u) => u.pathname.startsWith('/home/products/') && !u.pathname.endsWith(courseId))
  const copyId = new URL(page.url()).pathname.split('/').pop()!
  await page.goto(url(host, `/home/courses/${copyId}/sections`))
  await page.locator('[data-lecture="Oven"]').waitFor()
  assert.equal(await page.locator('[data-lecture]').count(), 8)
  assert.deepEqual(await sectionTitles(page), ['Baking', 'Starter', 'Dough'])
  await page.goto(url(host, '/home/courses'))
  await expectText(page.locator('main'), 'Bread at home (copy)')
  await expectText(page.locator('main'), 'Bread at home')
  await snap(page, 'course-builder-list')
})
