// Sales-page widgets as a visitor uses them (issue 6, seed 000 §2 widgets 3–6, §4, §9): the demo
// sales pages hold every block (section ids block-demo-{school}-{type}). Each test checks the
// behaviour the seed fixes, not only that the widget renders.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, expectText, snap, subdomain, url, visit } from './support.ts'

const EN = { host: subdomain('code-academy'), path: '/p/offer', id: (type: string) => `#block-demo-code-academy-${type}` }
const PL = { host: subdomain('akademia-kasi'), path: '/p/oferta', id: (type: string) => `#block-demo-akademia-kasi-${type}` }
const COUNTDOWN_KEY = 'countdown:/p/offer:demo-code-academy-countdown'

async function waitFor(page: Page, check: () => Promise<boolean>, what: string, timeout = 10_000) {
  const until = Date.now() + timeout
  while (Date.now() < until) {
    if (await check()) return
    await page.waitForTimeout(50)
  }
  assert.fail(`timed out waiting for ${what}`)
}
/** React's hydration errors (production builds log them minified): a widget rendered differently on the server. */
function watchHydration(page: Page) {
  const errors: string[] = []
  page.on('console', (m) => {
    if (m.type() === 'error' && /hydrat|Minified React error|did not match/i.test(m.text())) errors.push(m.text())
  })
  page.on('pageerror', (e) => errors.push(String(e)))
  return errors
}
const attr = (page: Page, selector: string, name: string) => page.locator(selector).first().getAttribute(name)

browserTest('countdown (seconds mode): the end is stored under page path + block id and a reload continues it', async ({ page }) => {
  const errors = watchHydration(page)
  await visit(page, url(EN.host, EN.path))
  const block = page.locator(EN.id('countdown'))
  await page.locator(`${EN.id('countdown')}[data-countdown-state="running"]`).waitFor()
  const stored = await page.evaluate((key) => window.localStorage.getItem(key), COUNTDOWN_KEY)
  assert.ok(stored && /^\d+$/.test(stored), `end time stored under ${COUNTDOWN_KEY}`)
  const left = Number(stored) - (await page.evaluate(() => Date.now()))
  assert.ok(left > 172_790_000 && left <= 172_800_000, `seconds mode: 48 h from the first view (${left} ms left)`)
  // 48 h: days shown (above 0), with hours, minutes, seconds.
  assert.equal(await block.locator('[data-unit]').count(), 4)
  // Exactly 2 days on the first tick, then 1 day 23 h …
  const unit = (name: string) => block.locator(`[data-unit="${name}"] span`).first().innerText()
  await waitFor(page, async () => (await unit('days')) === '1' && (await unit('hours')) === '23', '1 day 23 h left', 3000)

  // A later visit reuses the stored end: make it 1 h 5 s away and reload — no restart at 48 h.
  const later = await page.evaluate((key) => {
    const value = String(Date.now() + 3_605_000)
    window.localStorage.setItem(key, value)
    return value
  }, COUNTDOWN_KEY)
  await page.reload()
  await page.locator(`${EN.id('countdown')}[data-countdown-state="running"]`).waitFor()
  assert.equal(await page.evaluate((key) => window.localStorage.getItem(key), COUNTDOWN_KEY), later, 'the stored end was reused, not rewritten')
  assert.equal(await block.locator('[data-unit="days"]').count(), 0, 'no days below 24 h')
  assert.equal(await block.locator('[data-unit="hours"] span').first().innerText(), '01')
  const first = await block.locator('[data-unit="seconds"] span').first().innerText()
  await page.waitForTimeout(1200)
  assert.notEqual(await block.locator('[data-unit="seconds"] span').first().innerText(), first, 'ticks every second')
  await snap(page, 'sales page en 1280')
  assert.deepEqual(errors, [], 'no hydration mismatch or script error')
  assert.equal(await block.locator('[role="timer"]').count(), 1)
})

browserTest('countdown at zero: after-content shown, finished event emitted, promo_code cookie cleared', async ({ page, context }) => {
  await page.addInitScript(() => {
    const w = window as unknown as { finished: string[] }
    w.finished = []
    document.addEventListener('countdown:finished', (e) => w.finished.push((e as CustomEvent<{ blockId: string }>).detail.blockId))
  })
  await visit(page, url(EN.host, EN.path))
  await context.addCookies([{ name: 'promo_code', value: 'LAUNCH', url: url(EN.host, '/') }])
  await page.evaluate((key) => window.localStorage.setItem(key, String(Date.now() + 2500)), COUNTDOWN_KEY)
  await page.reload()
  const block = page.locator(EN.id('countdown'))
  await page.locator(`${EN.id('countdown')}[data-countdown-state="running"]`).waitFor()
  assert.ok((await context.cookies()).some((c) => c.name === 'promo_code'), 'the promo cookie is there while it runs')
  await page.locator(`${EN.id('countdown')}[data-countdown-state="finished"]`).waitFor({ timeout: 6000 })
  await expectText(block.locator('[data-countdown-after]'), 'The launch price has ended')
  assert.equal(await block.locator('[data-countdown-main]').count(), 0, 'main content hidden')
  assert.deepEqual(await page.evaluate(() => (window as unknown as { finished: string[] }).finished), ['demo-code-academy-countdown'])
  assert.equal((await context.cookies()).some((c) => c.name === 'promo_code'), false, 'promo_code cleared')
})

browserTest('carousel: 3/2/1 slides at 1280/900/375 px, autoplay after 2500 ms, dots navigate, infinite wrap', async ({ page }) => {
  await visit(page, url(EN.host, EN.path))
  const root = EN.id('carousel')
  await page.locator(`${root}[data-per-view]`).waitFor()
  const ratio = async () =>
    page.evaluate((sel) => {
      const viewport = document.querySelector(`${sel} [data-carousel-viewport]`)!.getBoundingClientRect().width
      return viewport / document.querySelector(`${sel} [data-slide="0"]`)!.getBoundingClientRect().width
    }, root)
  assert.equal(await attr(page, root, 'data-per-view'), '3')
  assert.equal(Math.round(await ratio()), 3)

  // Autoplay: the second slide 2500 ms after the timer starts. Hovering pauses it and leaving
  // starts it afresh, so both moments are known — and measured in the page's own clock, which a
  // busy test process cannot stretch.
  await page.hover(root)
  await waitFor(page, async () => (await attr(page, root, 'data-autoplay')) === 'paused', 'hover pauses autoplay', 2000)
  const start = Number(await attr(page, root, 'data-index'))
  await page.evaluate((sel) => {
    const el = document.querySelector(sel)!
    const from = el.getAttribute('data-index')
    const times: { running?: number; moved?: number } = {}
    ;(window as unknown as { carouselTimes: typeof times }).carouselTimes = times
    new MutationObserver(() => {
      if (el.getAttribute('data-autoplay') === 'running' && times.running === undefined) times.running = performance.now()
      if (el.getAttribute('data-index') !== from && times.moved === undefined) times.moved = performance.now()
    }).observe(el, { attributes: true, attributeFilter: ['data-autoplay', 'data-index'] })
  }, root)
  await page.mouse.move(0, 0)
  await waitFor(page, async () => (await attr(page, root, 'data-index')) === String((start + 1) % 4), 'autoplay to the next slide', 6000)
  const times = await page.evaluate(() => (window as unknown as { carouselTimes: { running: number; moved: number } }).carouselTimes)
  assert.ok(times.moved - times.running >= 2400, `moved ${Math.round(times.moved - times.running)} ms after autoplay started`)

  // Dots: buttons with labels, keyboard operable; focus pauses autoplay.
  const dots = page.locator(`${root} [data-dot]`)
  assert.equal(await dots.count(), 4)
  await dots.nth(3).focus()
  await page.keyboard.press('Enter')
  await waitFor(page, async () => (await attr(page, root, 'data-index')) === '3', 'dot 4')
  assert.equal(await dots.nth(3).getAttribute('aria-current'), 'true')
  assert.equal(await dots.nth(3).getAttribute('aria-label'), 'Go to slide 4')
  assert.equal(await attr(page, root, 'data-autoplay'), 'paused')
  await page.waitForTimeout(2800)
  assert.equal(await attr(page, root, 'data-index'), '3', 'paused while focused')

  // Leave the carousel: autoplay wraps from the last slide to the first (infinite).
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur())
  await page.mouse.move(0, 0)
  await waitFor(page, async () => (await attr(page, root, 'data-index')) === '0', 'wrap to slide 1', 4000)
  // After the wrap the track rests on the real first slide (not its copy).
  await page.waitForTimeout(700)
  const offset = await page.evaluate((sel) => {
    const viewport = document.querySelector(`${sel} [data-carousel-viewport]`)!.getBoundingClientRect()
    return Math.abs(document.querySelector(`${sel} [data-slide="0"]`)!.getBoundingClientRect().left - viewport.left)
  }, root)
  assert.ok(offset < 2, `first slide at the left edge (${offset}px)`)

  await page.setViewportSize({ width: 900, height: 900 })
  await waitFor(page, async () => (await attr(page, root, 'data-per-view')) === '2', '2 per view at 900 px')
  assert.equal(Math.round(await ratio()), 2)
  await page.setViewportSize({ width: 375, height: 800 })
  await waitFor(page, async () => (await attr(page, root, 'data-per-view')) === '1', '1 per view at 375 px')
  assert.equal(Math.round(await ratio()), 1)
})

browserTest('lightbox: opens at the clicked image, arrows and Escape, stops at the ends (loop off), 50 px swipe', async ({ page }) => {
  await visit(page, url(EN.host, EN.path))
  const root = EN.id('lightbox_gallery')
  const dialog = page.locator(`${root} [role="dialog"]`)
  const index = () => dialog.getAttribute('data-index')
  await page.locator(`${root} [data-lightbox-thumb="2"]`).click()
  await dialog.waitFor()
  assert.equal(await index(), '2')
  await expectText(dialog.locator('[data-lightbox-caption]'), 'Ask the community')
  await expectText(dialog.locator('[data-lightbox-counter]'), '3 / 6')
  await page.keyboard.press('ArrowRight')
  assert.equal(await index(), '3')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  assert.equal(await index(), '1')
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  await waitFor(page, () => page.evaluate((sel) => document.activeElement === document.querySelector(`${sel} [data-lightbox-thumb="2"]`), root), 'focus back on the thumbnail')

  // Keyboard only: Enter on the last thumbnail; next stops there, its button disabled.
  await page.locator(`${root} [data-lightbox-thumb="5"]`).focus()
  await page.keyboard.press('Enter')
  await dialog.waitFor()
  assert.equal(await index(), '5')
  await page.keyboard.press('ArrowRight')
  assert.equal(await index(), '5', 'no wrap with looping off')
  assert.equal(await dialog.locator('[data-lightbox-next]').isDisabled(), true)
  // Focus stays inside the dialog.
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab')
    assert.ok(await page.evaluate((sel) => document.querySelector(`${sel} [role="dialog"]`)!.contains(document.activeElement), root), 'focus trapped')
  }
  // The thumbnails strip jumps to the first; previous stops there.
  await dialog.locator('[data-lightbox-strip] button').first().click()
  assert.equal(await index(), '0')
  assert.equal(await dialog.locator('[data-lightbox-prev]').isDisabled(), true)
  await page.keyboard.press('ArrowLeft')
  assert.equal(await index(), '0')

  // Swipe: 30 px does nothing, 80 px to the left moves to the next image.
  const box = (await dialog.locator('[data-lightbox-stage] img').boundingBox())!
  const cx = box.x + box.width / 2
  const cy = box.y + box.height / 2
  const swipe = async (dx: number) => {
    await page.mouse.move(cx, cy)
    await page.mouse.down()
    await page.mouse.move(cx + dx, cy, { steps: 5 })
    await page.mouse.up()
  }
  await swipe(-30)
  assert.equal(await index(), '0', 'a swipe under 50 px does nothing')
  await swipe(-80)
  assert.equal(await index(), '1', 'a swipe over 50 px moves')
  await swipe(80)
  assert.equal(await index(), '0', 'and back')
  await dialog.locator('[data-lightbox-close]').click()
  await dialog.waitFor({ state: 'detached' })
})

browserTest('before/after: divider at 50, arrow keys move by 0.1, Home/End, pointer drag', async ({ page }) => {
  await visit(page, url(EN.host, EN.path))
  const root = EN.id('before_after')
  const input = page.locator(`${root} input[type="range"]`)
  const divider = () => page.locator(`${root} [data-divider]`).evaluate((el) => (el as HTMLElement).style.left)
  assert.equal(await input.inputValue(), '50')
  assert.equal(await input.getAttribute('step'), '0.1')
  assert.equal(await input.getAttribute('min'), '0')
  assert.equal(await input.getAttribute('max'), '100')
  assert.equal(await divider(), '50%')
  await input.focus()
  await page.keyboard.press('ArrowRight')
  assert.equal(await input.inputValue(), '50.1')
  await page.keyboard.press('ArrowLeft')
  await page.keyboard.press('ArrowLeft')
  assert.equal(await input.inputValue(), '49.9')
  assert.equal(await divider(), '49.9%')
  await page.keyboard.press('Home')
  assert.equal(await input.inputValue(), '0')
  await page.keyboard.press('End')
  assert.equal(await input.inputValue(), '100')
  assert.equal(await page.locator(`${root} [data-before-image]`).evaluate((el) => (el as HTMLElement).style.clipPath), 'inset(0px 0% 0px 0px)')

  // Pointer: press at a quarter of the picture, drag to three quarters.
  const box = (await page.locator(`${root} [data-before-after]`).boundingBox())!
  await page.mouse.move(box.x + box.width * 0.25, box.y + box.height / 2)
  await page.mouse.down()
  await waitFor(page, async () => Math.abs(Number(await input.inputValue()) - 25) < 1, 'divider at 25 %')
  await page.mouse.move(box.x + box.width * 0.75, box.y + box.height / 2, { steps: 4 })
  await page.mouse.up()
  await waitFor(page, async () => Math.abs(Number(await input.inputValue()) - 75) < 1, 'divider at 75 %')
})

browserTest('the Polish sales page speaks Polish in the widgets and keeps every widget keyboard-reachable at 375 px', async ({ page }) => {
  const errors = watchHydration(page)
  await page.setViewportSize({ width: 375, height: 800 })
  await visit(page, url(PL.host, PL.path))
  await page.locator(`${PL.id('carousel')}[data-per-view="1"]`).waitFor()
  assert.equal(await page.locator(`${PL.id('carousel')} [data-dot="0"]`).getAttribute('aria-label'), 'Przejdź do slajdu 1')
  await page.locator(`${PL.id('lightbox_gallery')} [data-lightbox-thumb="0"]`).click()
  const dialog = page.locator(`${PL.id('lightbox_gallery')} [role="dialog"]`)
  assert.equal(await dialog.locator('[data-lightbox-next]').getAttribute('aria-label'), 'Następne zdjęcie')
  assert.equal(await dialog.locator('[data-lightbox-close]').getAttribute('aria-label'), 'Zamknij')
  await page.keyboard.press('Escape')
  await dialog.waitFor({ state: 'detached' })
  assert.equal(await page.locator(`${PL.id('before_after')} input[type="range"]`).getAttribute('aria-label'), 'Suwak między zdjęciem przed i po')
  // Nothing wider than the screen.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth + 1), 'no horizontal scroll at 375 px')
  await snap(page, 'sales page pl 375')
  assert.deepEqual(errors, [], 'no hydration mismatch or script error')
})

browserTest('FAQ opens and closes from the keyboard; video, product card and hero are wired as the seed says', async ({ page }) => {
  await visit(page, url(EN.host, EN.path))
  const faq = page.locator(EN.id('faq'))
  const first = faq.locator('details').first()
  assert.equal(await first.evaluate((d) => (d as HTMLDetailsElement).open), false)
  await first.locator('summary').focus()
  await page.keyboard.press('Enter')
  assert.equal(await first.evaluate((d) => (d as HTMLDetailsElement).open), true, 'Enter opens the answer')
  assert.ok((await first.locator('div').innerText()).trim().length > 0, 'the answer shows')
  await page.keyboard.press('Space')
  assert.equal(await first.evaluate((d) => (d as HTMLDetailsElement).open), false, 'Space closes it')

  const frame = page.locator(`${EN.id('video_embed')} iframe`)
  assert.equal(await frame.getAttribute('src'), 'https://www.youtube-nocookie.com/embed/W6NZfCO5SIk')
  assert.equal(await frame.getAttribute('loading'), 'lazy')
  assert.equal(await frame.getAttribute('title'), 'Watch the introduction')

  // A visitor without access: "Buy now" to the checkout of the product.
  const buy = page.locator(`${EN.id('product_card')} [data-product-action]`)
  assert.equal(await buy.innerText(), 'Buy now')
  assert.match((await buy.getAttribute('href')) ?? '', /^\/[a-z0-9-]+\/checkout$/)
  assert.equal(await page.locator(`${EN.id('hero')} a`).getAttribute('href'), '/javascript-foundations')
  // Images carry their size (no layout shift).
  const unsized = await page.evaluate(() => [...document.querySelectorAll('[data-blocks] img')].filter((img) => !img.getAttribute('width') || !img.getAttribute('height')).length)
  assert.equal(unsized, 0, 'every block image has width and height')
})
