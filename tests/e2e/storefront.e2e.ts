// The storefront of both demo schools (issue 6 items 1 and 4): home, catalogue, a course page,
// blog and an article in the school's own language, at 375 px and 1280 px without horizontal
// scrolling; the keyboard reaches the main button; a student with access gets "Watch".
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, documentInfo, expectText, expectUrl, heading, logIn, snap, subdomain, url, visit } from './support.ts'

const cases = [
  {
    school: demoSchool('code-academy'),
    course: { slug: 'javascript-foundations', title: 'JavaScript Foundations' },
    article: { slug: 'why-learn-javascript-in-2026', title: 'Why learn JavaScript in 2026' },
    text: { catalogue: 'Courses', buy: 'Buy now', watch: 'Watch', blog: 'Blog', curriculum: 'Curriculum', lowest: null as RegExp | null },
  },
  {
    school: demoSchool('akademia-kasi'),
    course: { slug: 'budzet-domowy-od-zera', title: 'Budżet domowy od zera' },
    article: { slug: 'jak-zaczac-oszczedzac', title: 'Jak zacząć oszczędzać' },
    text: { catalogue: 'Kursy', buy: 'Kup teraz', watch: 'Oglądaj', blog: 'Blog', curriculum: 'Program kursu', lowest: /Najniższa cena z ostatnich 30 dni: .*zł/ },
  },
]

/** The document is no wider than the viewport (no horizontal scrolling). */
async function assertNoHorizontalScroll(page: Page, label: string) {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }))
  assert.ok(scrollWidth <= innerWidth, `${label}: document is ${scrollWidth}px wide in a ${innerWidth}px viewport`)
}

/** Every image on the page reserves its box: width and height attributes are set. */
async function assertImagesSized(page: Page, label: string) {
  const unsized = await page.locator('main img:not([width]), main img:not([height])').count()
  assert.equal(unsized, 0, `${label}: every image has width and height`)
}

for (const { school, course, article, text } of cases) {
  const host = subdomain(school.slug)
  for (const width of [375, 1280]) {
    browserTest(`${school.name} storefront at ${width}px: home, catalogue, course, blog, article in ${school.language}`, async ({ page }) => {
      await page.setViewportSize({ width, height: 900 })

      await visit(page, url(host, '/'))
      assert.equal((await documentInfo(page)).lang, school.language)
      await expectText(page.locator('[data-product-card]'), course.title)
      await expectText(page.locator('[data-article-card]'), article.title)
      await assertNoHorizontalScroll(page, 'home')
      await assertImagesSized(page, 'home')
      await snap(page, `${school.slug}-home-${width}`)

      await visit(page, url(host, '/courses'))
      await expectText(heading(page), text.catalogue)
      await expectText(page.locator('[data-product-card]'), course.title)
      await assertNoHorizontalScroll(page, 'catalogue')
      await snap(page, `${school.slug}-catalogue-${width}`)

      // From the catalogue card to the course page.
      await page.locator(`[data-product-card="${course.slug}"] a`).click()
      await page.waitForURL(url(host, `/${course.slug}`))
      await expectText(heading(page), course.title)
      await expectText(page.locator('[data-main-action="checkout"]'), text.buy)
      assert.equal(await page.locator('[data-main-action]').getAttribute('href'), `/${course.slug}/checkout`)
      await expectText(page.locator('#curriculum-title'), text.curriculum)
      if (text.lowest) await expectText(page.locator('[data-lowest-price]'), text.lowest)
      const canonical = await page.locator('link[rel="canonical"]').getAttribute('href')
      assert.ok(canonical?.endsWith(`/${course.slug}`), `canonical ${canonical}`)
      assert.equal(await page.locator('meta[property="og:title"]').getAttribute('content'), (await documentInfo(page)).title)
      await assertNoHorizontalScroll(page, 'course page')
      await assertImagesSized(page, 'course page')
      await snap(page, `${school.slug}-course-${width}`)

      // Keyboard only: Tab from the top of the page reaches the main button.
      await page.locator('body').focus()
      let reached = false
      for (let i = 0; i < 40 && !reached; i++) {
        await page.keyboard.press('Tab')
        reached = await page.evaluate(() => document.activeElement?.hasAttribute('data-main-action') ?? false)
      }
      assert.ok(reached, 'Tab reaches the main button')

      await visit(page, url(host, '/blog'))
      await expectText(heading(page), text.blog)
      await page.locator(`[data-article-card="${article.slug}"] a`).click()
      await page.waitForURL(url(host, `/blog/${article.slug}`))
      await expectText(heading(page), article.title)
      assert.ok((await page.locator('[data-article-body]').innerText()).length > 20, 'the article body is shown')
      await assertNoHorizontalScroll(page, 'article')
      await snap(page, `${school.slug}-article-${width}`)
    })
  }

  browserTest(`${school.name}: a student with access sees "${text.watch}" on the course page`, async ({ page }) => {
    // Sam (Code Academy) and Jan (Akademia Kasi) have access to the course (tenants/*.json).
    const student = demoUser(school, 'student', school.slug === 'code-academy' ? 'sam@example.com' : 'jan@example.com')
    await logIn(page, host, student.email, student.password)
    await expectUrl(page, host, '/panel')
    await visit(page, url(host, `/${course.slug}`))
    await expectText(page.locator('[data-main-action="watch"]'), text.watch)
    assert.equal(await page.locator('[data-main-action]').getAttribute('href'), `/${course.slug}/watch`)
  })

  const salesPage = school.slug === 'code-academy' ? 'offer' : 'oferta'
  browserTest(`${school.name}: the sales page /p/${salesPage} renders its blocks with its SEO title and canonical URL`, async ({ page }) => {
    await visit(page, url(host, `/p/${salesPage}`))
    assert.equal((await documentInfo(page)).lang, school.language)
    assert.ok((await page.locator(`[id^="block-demo-${school.slug}-"]`).count()) >= 5, 'the demo blocks are shown')
    assert.match((await documentInfo(page)).title, new RegExp(`· ${school.name}$`))
    assert.equal(await page.locator('link[rel="canonical"]').getAttribute('href'), url(host, `/p/${salesPage}`))
    await visit(page, url(host, '/p/no-such-page'), 404)
  })

  const custom = school.customDomains[0]!
  browserTest(`${school.name}: the catalogue and course page answer at the custom domain ${custom}`, async ({ page }) => {
    await visit(page, url(custom, '/courses'))
    await expectText(page.locator('[data-product-card]'), course.title)
    await visit(page, url(custom, `/${course.slug}`))
    await expectText(heading(page), course.title)
    await expectText(page.locator('[data-main-action]'), text.buy)
  })

  browserTest(`${school.name}: unknown product and article slugs are 404`, async ({ page }) => {
    await visit(page, url(host, '/no-such-course-here'), 404)
    await visit(page, url(host, '/blog/no-such-article'), 404)
  })
}
