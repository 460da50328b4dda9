// The sales-page editor (issue 6 §2) as a demo school's owner uses it: create a page, add a hero,
// rich text, FAQ and lead form, watch the live preview follow an edit before saving (and keep the
// last valid version while a required field is empty), reorder, publish, and find the blocks in
// that order on the public /p/{slug} in the school's language. Without JavaScript, blocks can
// still be added, moved and deleted.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, logIn, snap, subdomain, unique, url, visit } from './support.ts'

const success = (page: Page) => page.locator('[data-done] [role="status"]')
const preview = (page: Page) => page.locator('[data-live-preview]')
const rowTypes = (page: Page) => page.locator('[data-block-row]').evaluateAll((els) => els.map((el) => el.getAttribute('data-block-row')))

async function ownerOf(page: Page, slug: string) {
  const school = demoSchool(slug)
  const owner = demoUser(school, 'owner')
  const host = subdomain(slug)
  await logIn(page, host, owner.email, owner.password)
  await expectUrl(page, host, '/home')
  return host
}

async function createPage(page: Page, host: string, navLabel: string, titleLabel: string, createLabel: string, title: string) {
  await page.locator('[data-instructor-nav]').getByRole('link', { name: navLabel }).click()
  await expectUrl(page, host, '/home/subpages')
  await page.getByLabel(titleLabel, { exact: true }).fill(title)
  await page.getByRole('button', { name: createLabel }).click()
  await page.waitForURL(/\/home\/subpages\/[^/]+\/blocks$/)
  await page.locator('[data-done="created"]').waitFor()
  return new URL(page.url()).pathname
}

/** The editor's block rows, in order, once they match (navigations settle). */
async function expectRows(page: Page, expected: string[]) {
  const deadline = Date.now() + 10_000
  let actual: (string | null)[] = []
  while (Date.now() < deadline) {
    actual = await rowTypes(page)
    if (JSON.stringify(actual) === JSON.stringify(expected)) return
    await page.waitForTimeout(100)
  }
  assert.deepEqual(actual, expected)
}

/** Save the open block form and wait until the editor has closed (the save navigated). */
async function save(scope: Page | ReturnType<Page['locator']>, name: string) {
  const page = 'page' in scope ? scope.page() : scope
  await scope.getByRole('button', { name }).click()
  await page.locator('[data-block-editor]').waitFor({ state: 'detached' })
}

async function addBlock(page: Page, type: string, addLabel = 'Add block', blockTypeLabel = 'Block type') {
  await page.getByLabel(blockTypeLabel, { exact: true }).selectOption({ label: type })
  await page.getByRole('button', { name: addLabel, exact: true }).click()
  // (The button waits while a reorder saves: its redirect would close a draft opened meanwhile.)
  await page.locator('[data-block-editor]').waitFor()
}

browserTest('an owner builds a sales page with a live preview, reorders, publishes it', async ({ page }) => {
  const host = await ownerOf(page, 'code-academy')
  const title = `Spring launch ${unique('e2e')}`
  const editor = await createPage(page, host, 'Sales pages', 'Title', 'Create page', title)
  await expectText(success(page), 'Created')

  // Hero: the preview shows the new block as it is typed, before it is saved.
  await addBlock(page, 'Hero')
  const form = page.locator('[data-block-editor="hero"]')
  await form.getByLabel('Heading', { exact: true }).fill('Learn to code this spring')
  await expectText(preview(page).locator('[data-preview-block="new"] h2'), 'Learn to code this spring')
  await save(form, 'Save block')
  await expectText(success(page), 'Created')
  await expectRows(page, ['hero'])

  await addBlock(page, 'Rich text')
  await page.locator('[data-block-editor="rich_text"]').getByLabel('Text (Markdown)').fill('## Why now\n\nBecause **today** is the day.')
  await expectText(preview(page).locator('[data-preview-block="new"] h2'), 'Why now')
  await expectText(preview(page).locator('[data-preview-block="new"] strong'), 'today')
  await save(page, 'Save block')
  await expectText(success(page), 'Created')

  await addBlock(page, 'FAQ')
  const faq = page.locator('[data-block-editor="faq"]')
  await faq.getByLabel('Question', { exact: true }).fill('Do I need experience?')
  await faq.getByRole('button', { name: '+ Add' }).click()
  await faq.getByLabel('Question', { exact: true }).nth(1).fill('Is there a certificate?')
  await faq.getByLabel('Answer', { exact: true }).nth(1).fill('Yes.')
  await expectText(preview(page).locator('[data-preview-block="new"] [data-faq-item]').nth(1), 'Is there a certificate?')
  await save(faq, 'Save block')
  await expectText(success(page), 'Created')

  // Lead form with its defaults (First name, Email), plus a hidden field.
  await addBlock(page, 'Lead form')
  const lead = page.locator('[data-block-editor="lead_form"]')
  await lead.locator('[data-list="hiddenFields"]').getByRole('button', { name: '+ Add' }).click()
  await lead.locator('[data-list="hiddenFields"]').getByLabel('Name (a-z, 0-9, _)').fill('source')
  await lead.locator('[data-list="hiddenFields"]').getByLabel('Value').fill('spring')
  await lead.getByLabel('Button text', { exact: true }).fill('Join the list')
  await expectText(preview(page).locator('[data-preview-block="new"] [data-lead-submit]'), 'Join the list')
  await save(lead, 'Save block')
  await expectText(success(page), 'Created')
  await expectRows(page, ['hero', 'rich_text', 'faq', 'lead_form'])
  await snap(page, 'sales-page-editor')

  // Edit the hero at phone width: the preview changes before saving; an emptied required field keeps the last valid version.
  await page.setViewportSize({ width: 375, height: 800 })
  await page.getByRole('link', { name: 'Edit Hero: Learn to code this spring' }).click()
  const heroForm = page.locator('[data-block-editor="hero"]')
  const heroPreview = preview(page).locator('[data-preview-block="hero"] h2')
  await heroForm.getByLabel('Heading', { exact: true }).fill('Code this spring')
  await expectText(heroPreview, 'Code this spring')
  await heroForm.getByLabel('Heading', { exact: true }).fill('')
  await expectText(heroForm.locator('[data-field-error="heading"]'), 'This field is required')
  await expectText(heroPreview, 'Code this spring')
  await heroForm.getByLabel('Heading', { exact: true }).fill('Code this spring')
  await heroForm.getByLabel('Button text', { exact: true }).fill('See courses')
  await heroForm.getByLabel('Button link', { exact: true }).fill('javascript:alert(1)')
  await expectText(heroForm.locator('[data-field-error="ctaHref"]'), 'Use a path on your site or an http(s) address')
  await heroForm.getByLabel('Button link', { exact: true }).fill('/courses')
  const editorWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(editorWidth <= 375, `the editor does not scroll sideways at 375 px (${editorWidth})`)
  await snap(page, 'sales-page-editor-375')
  await save(heroForm, 'Save block')
  await page.setViewportSize({ width: 1280, height: 900 })
  await expectText(success(page), 'Changes saved')
  await expectText(preview(page).locator('[data-preview-block="hero"] h2'), 'Code this spring')

  // Reorder: the lead form one step up (the button works with or without JavaScript).
  await page.getByRole('button', { name: 'Move up: Lead form' }).click()
  await expectText(success(page), 'Order updated')
  await expectRows(page, ['hero', 'rich_text', 'lead_form', 'faq'])
  // And by keyboard on the drag handle: the rich text goes below the lead form.
  const handle = page.locator('[data-sort-handle^="Rich text"]')
  await handle.focus()
  await page.keyboard.press('Space')
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Space')
  await expectRows(page, ['hero', 'lead_form', 'rich_text', 'faq'])
  // The list moves at once; wait for the save (and the page data after it) to settle.
  await page.waitForLoadState('networkidle')
  await expectText(success(page), 'Order updated')

  // Delete needs a confirmation step.
  await addBlock(page, 'Countdown')
  await save(page, 'Save block')
  await expectText(success(page), 'Created')
  await page.getByRole('link', { name: /^Delete Countdown/ }).click()
  await page.locator('[data-delete-confirm]').getByRole('button', { name: 'Yes, delete' }).click()
  await expectText(success(page), 'Deleted')
  await expectRows(page, ['hero', 'lead_form', 'rich_text', 'faq'])

  // Unpublished: visitors get 404. Publish in the settings.
  const slug = (await page.locator('a', { hasText: 'View page' }).first().getAttribute('href'))!.replace('/p/', '')
  await page.getByRole('link', { name: 'Address, SEO and publishing' }).click()
  await page.getByLabel('Published (visible to visitors)').check()
  await page.getByRole('button', { name: 'Save changes' }).click()
  await expectText(success(page), 'Changes saved')

  const visitor = await page
    .context()
    .browser()!
    .newContext({ viewport: { width: 375, height: 800 } })
  try {
    const pub = await visitor.newPage()
    await visit(pub, url(host, `/p/${slug}`))
    const types = await pub.locator('main [data-block-type]').evaluateAll((els) => els.map((el) => el.getAttribute('data-block-type')))
    assert.deepEqual(types, ['hero', 'lead_form', 'rich_text', 'faq'])
    await expectText(pub.locator('[data-block-type="hero"] h2'), 'Code this spring')
    await expectText(pub.locator('[data-block-type="lead_form"] [data-lead-submit]'), 'Join the list')
    assert.equal(await pub.locator('[data-block-type="lead_form"] input[type="hidden"][name="source"]').getAttribute('value'), 'spring')
    assert.equal(await pub.locator('html').getAttribute('lang'), 'en')
    const width = await pub.evaluate(() => document.documentElement.scrollWidth)
    assert.ok(width <= 375, `no horizontal scroll at 375 px (${width})`)
    await snap(pub, 'sales-page-public-375')
  } finally {
    await visitor.close()
  }
  assert.ok(editor.endsWith('/blocks'))
})

browserTest('a Polish school builds its page in Polish; without JavaScript blocks are added, moved and deleted', async ({ page, newContext }) => {
  const host = await ownerOf(page, 'akademia-kasi')
  await createPage(page, host, 'Strony sprzedażowe', 'Tytuł', 'Utwórz stronę', `Oferta ${unique('e2e')}`)
  await expectText(success(page), 'Utworzono')
  await addBlock(page, 'Pytania i odpowiedzi', 'Dodaj blok', 'Rodzaj bloku')
  await expectText(preview(page).locator('[data-preview-block="new"] h2'), 'Najczęściej zadawane pytania')
  await save(page, 'Zapisz blok')
  await expectText(success(page), 'Utworzono')
  const editorPath = new URL(page.url()).pathname
  const cookies = await page.context().cookies()

  // The same owner without JavaScript: native posts, the type's defaults.
  const noJs = await newContext({ javaScriptEnabled: false })
  await noJs.addCookies(cookies)
  const p = await noJs.newPage()
  await visit(p, url(host, editorPath))
  await p.getByLabel('Rodzaj bloku', { exact: true }).selectOption({ label: 'Baner główny' })
  await p.getByRole('button', { name: 'Dodaj blok', exact: true }).click()
  await expectText(success(p), 'Utworzono')
  await expectRows(p, ['faq', 'hero'])
  await p.getByRole('button', { name: /^Przesuń w górę: Baner główny/ }).click()
  await expectText(success(p), 'Kolejność zaktualizowana')
  await expectRows(p, ['hero', 'faq'])
  await p.getByRole('link', { name: /^Usuń: Pytania i odpowiedzi/ }).click()
  await p.locator('[data-delete-confirm]').getByRole('button', { name: 'Tak, usuń' }).click()
  await expectText(success(p), 'Usunięto')
  await expectRows(p, ['hero'])
  await expectText(p.locator('[data-live-preview] [data-block-type="hero"] h2'), 'Twój nagłówek')

  // Published (still without JavaScript), the public page speaks Polish.
  await p.getByRole('link', { name: 'Adres, SEO i publikacja' }).click()
  const slug = await p.locator('input[name="slug"]').inputValue()
  await p.getByLabel('Opublikowana (widoczna dla odwiedzających)').check()
  await p.getByRole('button', { name: 'Zapisz zmiany' }).click()
  await expectText(success(p), 'Zmiany zapisane')
  await visit(p, url(host, `/p/${slug}`))
  assert.equal(await p.locator('html').getAttribute('lang'), 'pl')
  await expectText(p.locator('main [data-block-type="hero"] h2'), 'Twój nagłówek')
})
