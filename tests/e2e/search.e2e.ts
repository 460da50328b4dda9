// Course search modal (seed 000 §2 widget 1, §4, §5, §8, §9): one request after a 500 ms pause,
// none for an empty query, recent searches (10, unique case-insensitively, newest first, saved
// only after a success), the 422 message, 'No results…', keyboard: Escape closes, focus returns.
import assert from 'node:assert/strict'
import type { Page, Request } from 'playwright-core'
import { browserTest, demoSchool, expectText, snap, subdomain, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)

function recordSearches(page: Page) {
  const sent: Array<{ q: string; headers: Record<string, string> }> = []
  page.on('request', (req: Request) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/search') sent.push({ q: (JSON.parse(req.postData() ?? '{}') as { q: string }).q, headers: req.headers() })
  })
  return sent
}

const recentTerms = (page: Page) => page.locator('[data-search-recent] button').allTextContents()
const stored = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('recent_searches') ?? '[]') as string[])

browserTest('search modal: debounce, empty query, results, no results, 422, history and keyboard', async ({ page }) => {
  await visit(page, url(host, '/'))
  await page.evaluate(() => {
    localStorage.removeItem('recent_searches')
    ;(window as unknown as { dataLayer: unknown[] }).dataLayer = []
  })
  const sent = recordSearches(page)
  const trigger = page.getByRole('button', { name: 'Search courses' })
  await page.locator('[data-search-trigger="ready"]').waitFor()
  await trigger.click()
  const dialog = page.getByRole('dialog', { name: 'Search courses' })
  await dialog.waitFor()
  const input = dialog.getByPlaceholder('Which topic are you looking for?')
  assert.ok(await input.evaluate((el) => el === document.activeElement), 'the input has focus')

  // Typing quickly: one request, sent about 500 ms after the last key. Both times are taken in the
  // page's own clock (the last input event, the request's resource timing): the test process may
  // learn of either one late when another file runs beside it.
  await input.evaluate((el) => el.addEventListener('input', () => ((window as unknown as { lastInputAt: number }).lastInputAt = performance.now())))
  await input.pressSequentially('javas', { delay: 80 })
  await expectText(dialog.locator('[data-search-results]'), /JavaScript Foundations/)
  assert.equal(sent.length, 1, 'one request for a quickly typed word')
  assert.equal(sent[0].q, 'javas')
  const gap = await page.evaluate(() => {
    const request = performance.getEntriesByType('resource').find((e) => new URL(e.name).pathname === '/search')
    return request ? request.startTime - (window as unknown as { lastInputAt: number }).lastInputAt : -1
  })
  assert.ok(gap >= 400, `sent ${Math.round(gap)} ms after the last key`)
  assert.equal(sent[0].headers['x-requested-with'], 'XMLHttpRequest')
  const link = dialog.getByRole('link', { name: 'JavaScript Foundations' })
  assert.equal(await link.getAttribute('href'), '/javascript-foundations')
  await dialog.locator('[data-search-loading]').waitFor({ state: 'detached' })
  assert.deepEqual(await page.evaluate(() => (window as unknown as { dataLayer: unknown[] }).dataLayer), [{ event: 'search', search_query: 'javas' }])
  await snap(page, 'search-results')

  // Empty (and blank) input: no request, results cleared, history shown.
  await input.fill('')
  await input.pressSequentially('   ', { delay: 30 })
  await page.waitForTimeout(800)
  assert.equal(sent.length, 1, 'no request for an empty query')
  assert.equal(await dialog.locator('[data-search-result]').count(), 0)

  // Nothing found.
  await input.fill('zzzz-nothing')
  await expectText(dialog.locator('[data-search-message]'), 'No results this time. Please try again.')
  assert.equal(sent.length, 2)

  // The server's 422 message; a failed search is not remembered.
  await input.fill('x'.repeat(101))
  await expectText(dialog.locator('[data-search-message]'), 'The search term may not be longer than 100 characters.')
  assert.deepEqual(await stored(page), ['zzzz-nothing', 'javas'])

  // History: newest first; choosing a term searches at once (no 500 ms pause).
  await input.fill('')
  assert.deepEqual(await recentTerms(page), ['zzzz-nothing', 'javas'])
  const before = sent.length
  await page.evaluate(() => document.addEventListener('click', () => ((window as unknown as { clickedAt: number }).clickedAt = performance.now()), { capture: true, once: true }))
  await dialog.getByRole('button', { name: 'javas', exact: true }).click()
  await expectText(dialog.locator('[data-search-results]'), /JavaScript Foundations/)
  assert.equal(await input.inputValue(), 'javas')
  assert.equal(sent.length, before + 1)
  // In the page's clock, like the debounce above.
  const afterClick = await page.evaluate(() => {
    const requests = performance.getEntriesByType('resource').filter((e) => new URL(e.name).pathname === '/search')
    return requests[requests.length - 1]!.startTime - (window as unknown as { clickedAt: number }).clickedAt
  })
  assert.ok(afterClick >= 0 && afterClick < 400, `sent ${Math.round(afterClick)} ms after choosing`)
  assert.deepEqual(await stored(page), ['javas', 'zzzz-nothing'])

  // Limit of 10, unique case-insensitively.
  await page.evaluate(() => localStorage.setItem('recent_searches', JSON.stringify(Array.from({ length: 10 }, (_, i) => `term ${i + 1}`))))
  await input.fill('TERM 3')
  await expectText(dialog.locator('[data-search-message]'), 'No results this time. Please try again.')
  await page.waitForFunction(() => JSON.parse(localStorage.getItem('recent_searches') ?? '[]')[0] === 'TERM 3')
  assert.deepEqual(await stored(page), ['TERM 3', 'term 1', 'term 2', 'term 4', 'term 5', 'term 6', 'term 7', 'term 8', 'term 9', 'term 10'])
  await input.fill('git')
  await expectText(dialog.locator('[data-search-results]'), /Git in a Day/)
  const list = await stored(page)
  assert.equal(list.length, 10)
  assert.deepEqual(list.slice(0, 2), ['git', 'TERM 3'])
  assert.ok(!list.includes('term 10'), 'the oldest term is dropped')
  await input.fill('')
  assert.deepEqual((await recentTerms(page)).slice(0, 3), ['git', 'TERM 3', 'term 1'])

  // Keyboard: Escape closes the dialog and focus returns to the trigger.
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'hidden' })
  assert.ok(await trigger.evaluate((el) => el === document.activeElement), 'focus is back on the trigger')
  await page.keyboard.press('Enter')
  await dialog.waitFor()
})

browserTest('search modal speaks Polish on a Polish school, at 375 px', async ({ page }) => {
  const pl = demoSchool('akademia-kasi')
  await page.setViewportSize({ width: 375, height: 800 })
  await visit(page, url(subdomain(pl.slug), '/'))
  await page.locator('[data-search-trigger="ready"]').waitFor()
  await page.getByRole('button', { name: 'Szukaj kursów' }).click()
  const dialog = page.getByRole('dialog', { name: 'Szukaj kursów' })
  const input = dialog.getByPlaceholder('Jakiego tematu szukasz?')
  await input.fill('budżet')
  await expectText(dialog.locator('[data-search-results]'), /Budżet domowy od zera/)
  await input.fill('qqqq')
  await expectText(dialog.locator('[data-search-message]'), 'Tym razem brak wyników. Spróbuj ponownie.')
  const box = await dialog.boundingBox()
  assert.ok(box && box.width <= 375, 'the dialog fits a phone screen')
  await snap(page, 'search-pl-375')
})
