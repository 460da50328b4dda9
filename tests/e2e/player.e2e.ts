// The lecture player (issue 7 item 2) in Chromium: the owner adds a video lecture (uploaded to the
// Bunny peer) to the demo course; Sam (who has access) watches it in the signed player, takes
// notes, stars and completes lectures and sees all of it survive a reload; Jan (no access) and a
// visitor get the no-access page with the offer; a dripped lecture shows its date.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, logIn, snap, subdomain, url, visit } from './support.ts'

const PEER = process.env.BUNNY_PEER_ORIGIN ?? ''
const VIDEO = Buffer.alloc(64 * 1024, 7)
const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const SLUG = 'javascript-foundations'
const owner = demoUser(school, 'owner')
const sam = demoUser(school, 'student', 'sam@example.com')
const jan = demoUser(school, 'student', 'jan@example.com')

const nav = (page: Page) => page.locator('[data-player-nav]:visible')
const progressText = (page: Page) => page.locator('[data-course-progress-text]')

/** The owner adds a published video lecture to the demo course's first section; returns its id. */
async function addVideoLecture(page: Page, title: string) {
  await logIn(page, host, owner.email, owner.password)
  await page.waitForURL(/\/home/)
  await visit(page, url(host, '/home/courses'))
  await page.locator('[data-course-row="JavaScript Foundations"] a[href$="/sections"]').first().click()
  await page.waitForURL(/\/sections$/)
  await page.getByRole('link', { name: 'Add lecture to Getting started' }).click()
  await page.waitForURL(/\/lectures\/create$/)
  await page.getByLabel('Title', { exact: true }).fill(title)
  await page.locator('[data-video-upload] input[type="file"]:not([disabled])').setInputFiles({ name: 'lesson.mp4', mimeType: 'video/mp4', buffer: VIDEO })
  await page.locator('[data-selected-video]').waitFor({ timeout: 20_000 })
  await page.getByLabel('Run time').fill('2:00')
  await page.locator('input[name="published"]').check()
  await page.getByRole('button', { name: 'Create lecture' }).click()
  await expectText(page.locator('[role="status"]'), 'Created')
  await page.getByRole('link', { name: /^← Curriculum of/ }).click()
  await page.waitForURL(/\/sections$/)
  const href = await page.locator(`[data-lecture="${title}"] a[href*="/lectures/"]`).first().getAttribute('href')
  const id = href?.split('/lectures/')[1]?.split(/[/?#]/)[0]
  assert.ok(id, `lecture id from ${href}`)
  return id
}

browserTest('a student with access watches a video lecture, takes notes, completes lectures and keeps progress over a reload', async ({ page, newContext }) => {
  assert.ok(PEER, 'BUNNY_PEER_ORIGIN is set by tests/e2e/run.mjs')
  const title = `Video lesson ${Date.now().toString(36)}`
  const lectureId = await addVideoLecture(page, title)

  const student = await (await newContext()).newPage()
  await logIn(student, host, sam.email, sam.password)
  await student.waitForURL(/\/panel|\/$/)
  // /{slug}/watch continues at the first open lecture.
  await visit(student, url(host, `/${SLUG}/watch`))
  assert.match(new URL(student.url()).pathname, new RegExp(`^/${SLUG}/watch/[A-Za-z0-9_-]+$`))
  await expectText(progressText(student), /0 of \d+ lectures completed \(0%\)/)

  // The video lecture: the signed Bunny player (16:9, autoplay and preload off). The peer may
  // still be "transcoding" for a moment: reload until the player is there.
  const lecturePath = `/${SLUG}/watch/${lectureId}`
  const deadline = Date.now() + 30_000
  await nav(student).getByRole('link', { name: title }).click()
  await student.waitForURL(url(host, lecturePath))
  while (!(await student.locator('iframe[data-video-player]').count()) && Date.now() < deadline) {
    await student.waitForTimeout(1000)
    await student.reload()
  }
  const player = student.locator('iframe[data-video-player]')
  await player.waitFor({ state: 'attached' })
  const src = new URL((await player.getAttribute('src')) ?? '')
  assert.equal(src.origin, new URL(PEER).origin)
  assert.match(src.searchParams.get('token') ?? '', /^[0-9a-f]{64}$/)
  assert.equal(src.searchParams.get('autoplay'), 'false')
  assert.equal(src.searchParams.get('preload'), 'false')
  const box = await student.locator('[data-lecture-video]').boundingBox()
  assert.ok(box && Math.abs(box.width / box.height - 16 / 9) < 0.02, '16:9 player')
  await student.frameLocator('iframe[data-video-player]').locator('video').waitFor({ state: 'attached', timeout: 15_000 })

  // The lecture JSON and a fresh video token answer Sam.
  const fresh = await student.evaluate(async (id) => (await fetch(`/lecture/${id}/video`, { headers: { Accept: 'application/json' } })).status, lectureId)
  assert.equal(fresh, 200)

  // Notes, star, complete.
  await student.getByLabel('Your notes').fill('Remember: tokens expire.')
  await student.getByRole('button', { name: 'Save notes' }).click()
  await expectText(student.locator('[data-notes-status]'), 'Notes saved')
  await student.getByRole('button', { name: 'Star this lecture' }).click()
  await student.locator('[data-star-toggle="on"]').waitFor()
  await student.getByRole('button', { name: 'Mark as complete' }).click()
  await student.locator('[data-complete-toggle="completed"]').waitFor()
  await expectText(progressText(student), /^1 of \d+ lectures completed/)
  assert.equal(await nav(student).locator(`[data-nav-lecture="${lectureId}"]`).getAttribute('data-nav-completed'), 'true')

  // The next lecture, completed too.
  await student.locator('[data-next-lecture]').click()
  await student.waitForURL((u) => u.pathname !== lecturePath)
  await student.getByRole('button', { name: 'Mark as complete' }).click()
  await expectText(progressText(student), /^2 of \d+ lectures completed/)
  await snap(student, 'player-completed')

  // A reload keeps it all.
  await visit(student, url(host, lecturePath))
  assert.equal(await student.getByLabel('Your notes').inputValue(), 'Remember: tokens expire.')
  await student.locator('[data-complete-toggle="completed"]').waitFor()
  await student.locator('[data-star-toggle="on"]').waitFor()
  await expectText(progressText(student), /^2 of \d+ lectures completed/)
  // /{slug}/watch now continues where Sam left off (the lecture opened last).
  await visit(student, url(host, `/${SLUG}/watch`))
  assert.notEqual(new URL(student.url()).pathname, `/${SLUG}/watch`)

  // "Completed" toggles back.
  await visit(student, url(host, lecturePath))
  await student.getByRole('button', { name: /Completed/ }).click()
  await student.locator('[data-complete-toggle="open"]').waitFor()
  await expectText(progressText(student), /^1 of \d+ lectures completed/)

  // A dripped lecture (7 days after enrolment) shows its date and no content.
  const dom = nav(student).locator('[data-nav-state="locked"]').first()
  await expectText(dom, /Available on/)
  await dom.click()
  await student.locator('[data-lecture-locked]').waitFor()
  await expectText(student.locator('[data-lecture-locked]'), /Available on/)

  // Phone width: the navigation folds away, the player keeps 16:9.
  await student.setViewportSize({ width: 375, height: 800 })
  await visit(student, url(host, lecturePath))
  await student.locator('[data-lecture-video]').waitFor()
  const narrow = await student.locator('[data-lecture-video]').boundingBox()
  assert.ok(narrow && narrow.width <= 375 && Math.abs(narrow.width / narrow.height - 16 / 9) < 0.02)
  assert.equal(await student.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no horizontal scroll at 375 px')
  await snap(student, 'player-375')

  // Jan has no access: the no-access page with the offer, and the calls are refused.
  const janPage = await (await newContext()).newPage()
  await logIn(janPage, host, jan.email, jan.password)
  await janPage.waitForURL(/\/panel|\/$/)
  await visit(janPage, url(host, lecturePath), 403)
  await expectText(janPage.locator('[data-no-access] h1'), 'You do not have access to this lecture')
  await expectText(janPage.locator('[data-no-access-buy]'), 'Buy now')
  assert.equal(await janPage.locator('[data-no-access-buy]').getAttribute('href'), `/${SLUG}/checkout`)
  assert.equal(await janPage.locator('iframe').count(), 0)
  const refused = await janPage.evaluate(async (id) => Promise.all([`/lecture/${id}`, `/lecture/${id}/video`].map(async (p) => (await fetch(p, { headers: { Accept: 'application/json' } })).status)), lectureId)
  assert.deepEqual(refused, [403, 403])

  // A visitor: the same page with a login link that comes back here.
  const visitor = await (await newContext()).newPage()
  await visit(visitor, url(host, lecturePath), 403)
  await snap(visitor, 'player-no-access')
  await visitor.locator('[data-no-access-login]').click()
  await visitor.waitForURL(/\/login\?redirectTo=/)
  assert.equal(new URL(visitor.url()).searchParams.get('redirectTo'), lecturePath)
  await snap(visitor, 'player-login')
})

browserTest('the free lecture opens to a visitor, and notes work without JavaScript', async ({ page, newContext }) => {
  // Welcome is free to watch: a visitor reads it, without notes (nothing to save them to).
  await visit(page, url(host, `/${SLUG}`))
  await visit(page, url(host, `/${SLUG}/watch`))
  await expectText(page.locator('main h1'), 'Welcome')
  assert.equal(await page.locator('[data-lecture-notes]').count(), 0)

  const noJs = await (await newContext({ javaScriptEnabled: false })).newPage()
  await logIn(noJs, host, sam.email, sam.password)
  await noJs.waitForURL(/\/panel|\/$/)
  await visit(noJs, url(host, `/${SLUG}/watch`))
  await noJs.locator('[data-lecture-notes]').fill('Written without JavaScript')
  await noJs.getByRole('button', { name: 'Save notes' }).click()
  await noJs.waitForURL(/notes=saved/)
  await expectText(noJs.locator('[data-notes-status]'), 'Notes saved')
  assert.equal(await noJs.locator('[data-lecture-notes]').inputValue(), 'Written without JavaScript')
  await noJs.getByRole('button', { name: 'Mark as complete' }).click()
  await noJs.locator('[data-complete-toggle="completed"]').waitFor()
})
