// Reviews list block (seed 000 §2 widget 17, §7): no request until the block is within 250 px of
// the viewport; then the first page; 'Show more' pages until the end; rating labels, the
// 'No descriptive opinion' fallback, avatars and links to the course page.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, expectText, snap, subdomain, url, visit } from './support.ts'

function recordReviewCalls(page: Page) {
  const calls: Array<{ url: string; body: Record<string, unknown> }> = []
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/json/reviews') calls.push({ url: req.url(), body: JSON.parse(req.postData() ?? '{}') as Record<string, unknown> })
  })
  return calls
}

/** Scroll so the block's top edge is `gap` px below the bottom of the viewport. */
async function scrollToGap(page: Page, selector: string, gap: number) {
  await page.evaluate(
    ([sel, g]) => {
      const el = document.querySelector(sel as string)!
      const top = el.getBoundingClientRect().top + window.scrollY
      window.scrollTo(0, Math.max(0, top - window.innerHeight - (g as number)))
    },
    [selector, gap],
  )
}

browserTest('reviews load lazily within 250 px of view and page with Show more', async ({ page }) => {
  const school = demoSchool('code-academy')
  const calls = recordReviewCalls(page)
  await page.setViewportSize({ width: 1280, height: 700 })
  await visit(page, url(subdomain(school.slug), '/p/offer'))
  const block = '#block-demo-code-academy-reviews'
  const section = page.locator(block)
  await section.waitFor({ state: 'attached' })
  // Hydrated: the no-JavaScript link gives way to the lazy list.
  await page.waitForFunction((sel) => document.querySelector(sel)?.getAttribute('data-reviews-state') === 'idle' && !document.querySelector(`${sel} a[href="/javascript-foundations"]`), block)
  const topGap = await section.evaluate((el) => el.getBoundingClientRect().top - window.innerHeight)
  assert.ok(topGap > 400, `the block starts ${topGap} px below the fold (test precondition)`)

  await page.waitForTimeout(700)
  assert.equal(calls.length, 0, 'no request while the block is far from view')
  await scrollToGap(page, block, 450)
  await page.waitForTimeout(700)
  assert.equal(calls.length, 0, 'no request 450 px away')

  await scrollToGap(page, block, 150)
  await page.locator(`${block} [data-review]`).first().waitFor()
  assert.equal(calls.length, 1)
  assert.equal(calls[0].body.length, 5)
  assert.equal(typeof calls[0].body.course_id, 'string')
  const reviews = page.locator(`${block} [data-review]`)
  assert.equal(await reviews.count(), 5)
  // Newest first (Maya 1 day ago), labels and the text fallback (Lucas left no text).
  await expectText(reviews.nth(0), /Maya.*Recommended/s)
  await expectText(reviews.nth(2), /Priya.*Neutral/s)
  await expectText(reviews.nth(3).locator('[data-review-text]'), 'No descriptive opinion')
  assert.equal(await reviews.nth(0).getByRole('link').getAttribute('href'), '/javascript-foundations')
  assert.match((await reviews.nth(0).locator('time').getAttribute('title')) ?? '', /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/)
  assert.equal(await reviews.nth(0).locator('[data-user-avatar="initial"]').innerText(), 'M')

  const more = page.locator(block).getByRole('button', { name: 'Show more' })
  await more.click()
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel} [data-review]`).length === 10, block)
  assert.equal(calls.length, 2)
  assert.match(calls[1].url, /\/json\/reviews\?page=2$/)
  await expectText(reviews.nth(7), /Ethan.*Not recommended/s)
  // Keyboard: the button keeps focus while the next page loads.
  await more.focus()
  await page.keyboard.press('Enter')
  await page.waitForFunction((sel) => document.querySelectorAll(`${sel} [data-review]`).length === 14, block)
  assert.equal(await more.count(), 0, 'no Show more after the last page')
  assert.equal(calls.length, 3)
  await snap(page, 'reviews')
})

browserTest('without JavaScript the reviews block links to the course page', async ({ page }) => {
  const school = demoSchool('akademia-kasi')
  await visit(page, url(subdomain(school.slug), '/p/oferta'))
  const link = page.locator('#block-demo-akademia-kasi-reviews a[href="/budzet-domowy-od-zera"]')
  await expectText(link, 'Zobacz opinie na stronie kursu')
}, { javaScriptEnabled: false })
