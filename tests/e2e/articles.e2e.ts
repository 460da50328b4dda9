// The school's blog and page settings (issue 5 §3, §6), as a creator uses them: write, edit and
// delete an article (hostile Markdown stays inert in the live preview and the saved page), then
// save page settings whose JavaScript runs on the school's home page for visitors only — never
// under /home, never for the owner (ADR 013).
import assert from 'node:assert/strict'
import { browserTest, expectText, expectUrl, fieldError, heading, newSchool, signUp, snap, subdomain, url, visit } from './support.ts'

const HOSTILE = '# Budget basics\n\n<img src="/favicon.svg" onerror="alert(1)">\n\n<script>alert(2)</script>\n\n**Save first**, then [spend](javascript:alert(3)).'

browserTest('a creator writes, edits and deletes an article; hostile Markdown stays harmless', async ({ page }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await page.locator('[data-instructor-nav]').getByRole('link', { name: 'Articles' }).click()
  await expectUrl(page, host, '/home/articles')
  await page.getByRole('link', { name: 'New article' }).click()
  await expectUrl(page, host, '/home/articles/new')

  // An empty title: the field error, in the page's language.
  await page.getByRole('button', { name: 'Create article' }).click()
  await expectText(fieldError(page, 'title'), 'Title can not be empty')

  await page.getByLabel('Title', { exact: true }).fill('Budget basics')
  await page.locator('textarea[name="body"]').fill(HOSTILE)
  const preview = page.locator('[data-article-preview]')
  await expectText(preview.locator('h1'), 'Budget basics')
  await expectText(preview.locator('strong'), 'Save first')
  assert.equal(await preview.locator('[onerror], script').count(), 0, 'no handler or script in the live preview')
  assert.equal(await preview.locator('a[href^="javascript"]').count(), 0)
  await page.locator('input[name="date"]').fill('2026-03-01')
  await page.locator('input[name="time"]').fill('09:15')
  await page.getByLabel(/^Published/).check()
  await page.getByRole('button', { name: 'Create article' }).click()
  await expectUrl(page, host, '/home/articles')
  await page.locator('[data-done="created"]').waitFor()
  await expectText(page.getByRole('status').first(), 'Article created')
  const row = page.locator('[data-article-row]')
  await expectText(row, /Budget basics.*Published.*2026-03-01 09:15/)

  await row.getByRole('link', { name: 'Budget basics' }).click()
  await expectText(heading(page), 'Budget basics')
  // The saved page renders the stored Markdown through the same sanitizer.
  await expectText(page.locator('[data-article-preview] h1'), 'Budget basics')
  assert.equal(await page.locator('[data-article-preview] [onerror], [data-article-preview] script').count(), 0)
  await page.getByLabel('Title', { exact: true }).fill('Budget basics, revised')
  await page.getByRole('button', { name: 'Save article' }).click()
  await expectText(page.getByRole('status').first(), 'Article updated')
  await expectText(heading(page), 'Budget basics, revised')
  await snap(page, 'article-edit')

  await page.getByLabel('Type DELETE').fill('delete')
  await page.getByRole('button', { name: 'Delete article' }).click()
  await expectText(fieldError(page, 'confirm'), 'Type DELETE to confirm')
  await page.getByLabel('Type DELETE').fill('DELETE')
  await page.getByRole('button', { name: 'Delete article' }).click()
  await expectUrl(page, host, '/home/articles')
  await page.locator('[data-done="deleted"]').waitFor()
  await expectText(page.getByRole('status').first(), 'Article deleted')
  assert.equal(await page.locator('[data-article-row]').count(), 0)
})

browserTest("page settings are saved, and the creator's JavaScript runs on the school's home for visitors only", async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await visit(page, url(host, '/home/settings/page'))
  await expectText(heading(page), 'Page settings')

  await page.getByLabel('Page name').fill('Budget Studio')
  await page.getByLabel('Author name').fill('Ewa Testowa')
  await page.getByLabel('Public contact email').fill('not-an-email')
  await page.getByLabel('Template').selectOption('bold')
  // A snippet as analytics tools hand them out: inline code that loads another script.
  await page
    .locator('textarea[name="customJs"]')
    .fill(`<script>document.documentElement.dataset.creator = 'ran'; var s = document.createElement('script'); s.src = 'https://cdn.creator.test/loaded.js'; document.head.appendChild(s)</script>`)
  await page.getByLabel('a new student registers').uncheck()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expectText(fieldError(page, 'contactEmail'), 'Provide a valid email address')
  await page.getByLabel('Public contact email').fill('hello@example.com')
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expectText(page.getByRole('status').first(), 'Changes saved')
  assert.equal(await page.getByLabel('Template').inputValue(), 'bold')
  assert.equal(await page.getByLabel('a new student registers').isChecked(), false)

  // The owner: not in the panel, and not on the public page either (staff never run it).
  const creatorRan = () => page.evaluate(() => document.documentElement.dataset.creator ?? null)
  await visit(page, url(host, '/home'))
  assert.equal(await creatorRan(), null, 'no creator code under /home')
  await visit(page, url(host, '/'))
  assert.equal(await creatorRan(), null, 'no creator code for the owner')

  // A visitor: it runs with the nonce, and what it loads runs too ('strict-dynamic').
  const visitorContext = await newContext()
  await visitorContext.route('https://cdn.creator.test/loaded.js', (route) =>
    route.fulfill({ status: 200, contentType: 'application/javascript', body: "document.documentElement.dataset.loaded = 'yes'" }),
  )
  const visitor = await visitorContext.newPage()
  await visit(visitor, url(host, '/'))
  await expectText(visitor.locator('header'), 'Budget Studio')
  // Issue 23 item 11: the public contact e-mail reaches visitors, in the footer.
  assert.equal(await visitor.locator('footer [data-contact-email]').getAttribute('href'), 'mailto:hello@example.com')
  await visitor.waitForFunction(() => document.documentElement.dataset.loaded === 'yes')
  assert.equal(await visitor.evaluate(() => document.documentElement.dataset.creator), 'ran')
  // The page still hydrates under the widened policy.
  await visitor.waitForFunction(() => Boolean((window as unknown as { __remixRouter?: unknown }).__remixRouter))
  await visit(visitor, url(host, '/login'))
  assert.equal(await visitor.evaluate(() => document.documentElement.dataset.creator ?? null), null, 'no creator code on the sign-in page')
})
