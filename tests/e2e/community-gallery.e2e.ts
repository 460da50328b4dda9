// Community gallery (issue 22 item 5; seed 000 widget 4/16) in Chromium on the demo school: the
// owner makes a topic with three picture posts; its gallery shows 4 per row; a tile opens the
// shared lightbox at its index (newest first) by keyboard; arrows move and stop at the ends; Tab
// stays in the dialog; Escape closes it and focus returns to the tile; the caption links to the post.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, logIn, subdomain, unique, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const owner = demoUser(school, 'owner')

/** A real 1×1 PNG. */
const PNG_1PX = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64')

async function waitFor(page: Page, check: () => Promise<boolean>, what: string, timeout = 10_000) {
  const until = Date.now() + timeout
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`)
    await page.waitForTimeout(50)
  }
}

/** A public topic with three picture posts, written through the owner's forms (fetch from the page: same-origin). */
async function topicWithPictures(page: Page) {
  const title = unique('Gallery topic')
  const created = await page.evaluate(async (topicTitle) => {
    const res = await fetch('/home/community', {
      method: 'POST',
      body: new URLSearchParams({ title: topicTitle, description: '', allowStudentsToAddPosts: 'on', access: 'public' }),
      redirect: 'manual',
    })
    return res.type === 'opaqueredirect' || res.ok
  }, title)
  assert.ok(created, 'topic created')
  await visit(page, url(host, '/community'))
  const href = await page.locator('[data-topic-link]', { hasText: title }).getAttribute('href')
  assert.ok(href, 'the new topic is listed')
  const topicId = href.split('/').pop()!
  const saved = await page.evaluate(
    async ({ topicId, png }) => {
      const bytes = Uint8Array.from(atob(png), (c) => c.charCodeAt(0))
      const statuses: string[] = []
      for (const n of [1, 2, 3]) {
        const form = new FormData()
        form.set('intent', 'create')
        form.set('title', `Picture number ${n}`)
        form.set('body', 'A picture for the gallery')
        form.set('image', new File([bytes], `picture-${n}.png`, { type: 'image/png' }))
        const res = await fetch(`/community/topics/${topicId}`, { method: 'POST', body: form, redirect: 'manual' })
        statuses.push(res.type)
      }
      return statuses
    },
    { topicId, png: PNG_1PX.toString('base64') },
  )
  assert.deepEqual(saved, ['opaqueredirect', 'opaqueredirect', 'opaqueredirect'], 'picture posts saved (each redirects back to the topic)')
  return topicId
}

browserTest('community gallery: 4 per row; the lightbox opens, moves, stops at the ends and closes by keyboard', async ({ page }) => {
  await logIn(page, host, owner.email, owner.password)
  await page.waitForURL(/\/home/)
  const topicId = await topicWithPictures(page)

  await visit(page, url(host, `/community/gallery/${topicId}`))
  const grid = page.locator('[data-gallery-grid]')
  await page.locator('[data-gallery-grid][data-hydrated="true"]').waitFor()
  assert.equal(await grid.evaluate((el) => getComputedStyle(el).gridTemplateColumns.split(' ').length), 4, '4 per row at 1280 px')
  assert.equal(await grid.locator('li').count(), 3)

  const dialog = page.locator('[role="dialog"][data-lightbox-dialog]')
  const index = () => dialog.getAttribute('data-index')
  const thumb = page.locator('[data-gallery-thumb="0"]')
  assert.equal(await thumb.getAttribute('aria-label'), 'Open Picture number 3 (1 of 3)')
  await thumb.focus()
  await page.keyboard.press('Enter')
  await dialog.waitFor()
  assert.equal(await index(), '0')
  await expectText(dialog.locator('[data-lightbox-counter]'), '1 / 3')
  await expectText(dialog.locator('[data-lightbox-caption]'), /Picture number 3/)
  assert.equal(await dialog.locator('[data-lightbox-prev]').isDisabled(), true, 'previous stops at the first')
  await page.keyboard.press('ArrowLeft')
  assert.equal(await index(), '0')
  await page.keyboard.press('ArrowRight')
  await waitFor(page, async () => (await index()) === '1', 'the second item')
  await expectText(dialog.locator('[data-lightbox-caption]'), /Picture number 2/)
  await page.keyboard.press('ArrowRight')
  await page.keyboard.press('ArrowRight')
  await waitFor(page, async () => (await index()) === '2', 'the last item')
  assert.equal(await dialog.locator('[data-lightbox-next]').isDisabled(), true, 'next stops at the last')
  assert.equal(await dialog.locator('[data-lightbox-next]').getAttribute('aria-label'), 'Next item')
  await page.keyboard.press('ArrowLeft')
  await waitFor(page, async () => (await index()) === '1', 'back to the second item')
  // Focus stays inside the dialog.
  for (let i = 0; i < 8; i++) {
    await page.keyboard.press('Tab')
    assert.ok(await page.evaluate(() => document.querySelector('[data-lightbox-dialog]')!.contains(document.activeElement)), 'focus trapped')
  }
  const postLink = dialog.locator('[data-gallery-post-link]')
  assert.match((await postLink.getAttribute('href')) ?? '', /^\/community\/posts\/[A-Za-z0-9_-]+$/)
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  await waitFor(page, () => page.evaluate(() => document.activeElement === document.querySelector('[data-gallery-thumb="0"]')), 'focus back on the tile')

  // The close button too, and the caption's link leads to the post.
  await page.locator('[data-gallery-thumb="2"]').click()
  await dialog.waitFor()
  assert.equal(await index(), '2')
  await dialog.locator('[data-lightbox-close]').click()
  await dialog.waitFor({ state: 'detached' })
  await page.locator('[data-gallery-thumb="1"]').click()
  await dialog.locator('[data-gallery-post-link]').click()
  await page.waitForURL(/\/community\/posts\//)
  await expectText(page.locator('main h1').first(), 'Picture number 2')
})
