// The student panel /panel (issue 7 item 1) in Code Academy: Sam completes lectures through the
// lecture calls (POST /lecture/{id}/complete) and finds his course with its progress and the
// lecture to continue; Jan, with nothing, sees the empty state with a link to the catalogue.
// Both at 1280 px and 375 px without sideways scrolling.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, heading, logIn, snap, subdomain, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const HOST = subdomain(school.slug)
const COURSE = 'javascript-foundations'

/** The lecture calls as the player's script makes them (same-origin fetch, JSON). */
async function setComplete(page: Page, lectureId: string, value: boolean) {
  const answer = await page.evaluate(
    async ([id, v]) => {
      const res = await fetch(`/lecture/${id}/complete`, { method: 'POST', headers: { Accept: 'application/json', 'Content-Type': 'application/json' }, body: JSON.stringify({ value: v }) })
      return { status: res.status, body: (await res.json()) as { completed?: boolean } }
    },
    [lectureId, value] as const,
  )
  assert.equal(answer.status, 200, `POST /lecture/${lectureId}/complete`)
  assert.equal(answer.body.completed, value)
}

/** "{done} of {total} lectures" of the course card, as numbers. */
async function progressOf(page: Page) {
  const card = page.locator(`[data-panel-course="${COURSE}"]`)
  const text = await card.locator('[data-progress-count]').innerText()
  const match = /^(\d+) of (\d+) lectures?$/.exec(text.trim())
  assert.ok(match, `progress text: ${text}`)
  const percent = await card.getByRole('progressbar').getAttribute('aria-valuenow')
  return { done: Number(match[1]), total: Number(match[2]), percent: Number(percent) }
}

/** The school's site survey (engagement area) opens on /panel once; postpone it so it does not cover the page. */
async function postponeSurvey(page: Page) {
  const later = page.locator('[data-survey-later]')
  try {
    await later.waitFor({ state: 'visible', timeout: 5_000 })
  } catch {
    return
  }
  await later.click()
  await later.waitFor({ state: 'hidden' })
}

async function assertNoSidewaysScroll(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
  assert.ok(overflow <= 0, `the page scrolls sideways by ${overflow} px`)
}

browserTest('Sam completes a lecture and the panel shows his course, its progress and where to continue', async ({ page }) => {
  const sam = demoUser(school, 'student', 'sam@example.com')
  await logIn(page, HOST, sam.email, sam.password)
  await expectUrl(page, HOST, '/panel')
  await postponeSurvey(page)

  // The course's watch path sends him to a lecture; its id is what the lecture calls take.
  await visit(page, url(HOST, `/${COURSE}/watch`))
  const match = new RegExp(`/${COURSE}/watch/([a-z0-9]+)$`).exec(new URL(page.url()).pathname)
  assert.ok(match, `the watch path redirects to a lecture: ${page.url()}`)
  const lectureId = match[1]

  await setComplete(page, lectureId, false)
  await visit(page, url(HOST, '/panel'))
  const before = await progressOf(page)
  assert.ok(before.total > 0, 'the course has published lectures')

  await setComplete(page, lectureId, true)
  await visit(page, url(HOST, '/panel'))
  const after = await progressOf(page)
  assert.deepEqual(after, { done: before.done + 1, total: before.total, percent: Math.floor(((before.done + 1) * 100) / before.total) })
  await expectText(page.locator(`[data-panel-course="${COURSE}"] [data-progress-percent]`), `${after.percent}% complete`)

  // Continue where you left off: the lecture he last opened.
  const resume = page.locator('[data-panel-continue]')
  await expectText(resume, 'Continue where you left off')
  await expectText(resume.locator('[data-continue-course]'), 'JavaScript Foundations')
  assert.equal(await resume.locator('[data-continue-link]').getAttribute('href'), `/${COURSE}/watch/${lectureId}`)
  assert.equal(await page.locator(`[data-panel-course="${COURSE}"] [data-course-watch]`).getAttribute('href'), `/${COURSE}/watch`)
  await expectText(page.locator(`[data-panel-course="${COURSE}"] [data-course-watch]`), 'Continue')
  await assertNoSidewaysScroll(page)
  await snap(page, 'panel-desktop')

  // The progress survives: undo it and it goes back.
  await setComplete(page, lectureId, false)
  await visit(page, url(HOST, '/panel'))
  assert.deepEqual(await progressOf(page), before)

  // The button takes him to the lecture.
  await page.locator('[data-continue-link]').click()
  await expectUrl(page, HOST, `/${COURSE}/watch/${lectureId}`)

  // 375 px: one column, nothing wider than the screen.
  await page.setViewportSize({ width: 375, height: 800 })
  await visit(page, url(HOST, '/panel'))
  await page.locator(`[data-panel-course="${COURSE}"]`).waitFor()
  await assertNoSidewaysScroll(page)
  const box = await page.locator(`[data-panel-course="${COURSE}"]`).boundingBox()
  assert.ok(box && box.width <= 375 && box.width > 300, `the course card fills the phone's width (${box?.width} px)`)
  await snap(page, 'panel-mobile')
})

browserTest('Jan has nothing at Code Academy: the empty state links to the catalogue', async ({ page }) => {
  const jan = demoUser(school, 'student', 'jan@example.com')
  await logIn(page, HOST, jan.email, jan.password)
  await expectUrl(page, HOST, '/panel')
  await postponeSurvey(page)
  await expectText(heading(page), 'Hello, Jan Kowalski!')
  const empty = page.locator('[data-panel-empty]')
  await expectText(empty, 'Nothing here yet')
  assert.equal(await page.locator('[data-panel-continue]').count(), 0)
  assert.equal(await page.locator('[data-panel-course]').count(), 0)
  await page.setViewportSize({ width: 375, height: 800 })
  await assertNoSidewaysScroll(page)
  await empty.getByRole('link', { name: 'Browse courses' }).click()
  await expectUrl(page, HOST, '/courses')
})
