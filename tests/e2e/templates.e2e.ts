// Storefront templates (issue 23 item 11): Classic, Minimal and Bold look different on the school
// home (header, banner, cards), screenshotted at 1280 and 390 px; the owner previews a template
// before saving it while visitors keep the saved one; the public contact e-mail is in the footer.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, expectText, expectUrl, newSchool, screenshotSet, signUp, subdomain, url, visit } from './support.ts'

const TEMPLATES = ['classic', 'minimal', 'bold'] as const

async function saveSettings(page: Page, host: string, fields: { template?: string; contactEmail?: string }) {
  await visit(page, url(host, '/home/settings/page'))
  const form = page.locator('form[data-page-settings]')
  if (fields.template) await form.locator('[name="template"]').selectOption(fields.template)
  if (fields.contactEmail !== undefined) await form.locator('[name="contactEmail"]').fill(fields.contactEmail)
  await form.locator('button[type="submit"]').click()
  await page.locator('[data-done="saved"]').waitFor()
}

/** A published product for the home's grid: a physical one (a course needs a published lecture first). */
async function publishProduct(page: Page, host: string, title: string) {
  await visit(page, url(host, '/home/products/new?kind=physical'))
  await page.locator('form[data-step="1"] [name="title"]').fill(title)
  await page.getByRole('button', { name: 'Continue' }).click()
  const step2 = page.locator('form[data-step="2"]')
  await step2.locator('[name="price"]').fill('29')
  await step2.getByRole('button', { name: 'Create product' }).click()
  await page.locator('[data-done="created"]').waitFor()
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.locator('[data-done="published"]').waitFor()
}

/** What a visitor's eye meets first: the header's, the title's and the first product card's computed look. */
const LOOK = {
  body: ['background-color'],
  header: ['background-color', 'border-bottom-width', 'border-bottom-color', 'font-family'],
  title: ['font-family', 'font-weight', 'text-transform'],
  card: ['border-radius', 'box-shadow', 'border-top-width'],
}
const LOOK_SELECTORS = { body: 'body', header: 'header[data-site-header]', title: 'main h1', card: '[data-product-card]' }

async function lookOf(page: Page) {
  const look: Record<string, Record<string, string> | null> = {}
  for (const [part, props] of Object.entries(LOOK)) {
    const el = page.locator(LOOK_SELECTORS[part as keyof typeof LOOK_SELECTORS]).first()
    // No helper functions inside evaluate: the test runner's transform would name them (__name).
    look[part] = (await el.count()) ? await el.evaluate((node, names) => Object.fromEntries(names.map((n) => [n, getComputedStyle(node).getPropertyValue(n)])), props) : null
  }
  return look
}

browserTest('the three templates look different on the school home, with the contact e-mail in the footer', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await publishProduct(page, host, 'Template handbook')

  const visitor = await (await newContext()).newPage()
  await visitor.setViewportSize({ width: 1280, height: 900 })
  const looks: Record<string, string> = {}
  for (const template of TEMPLATES) {
    await saveSettings(page, host, { template, contactEmail: 'hello@example.com' })
    await visit(visitor, url(host, '/'))
    assert.equal(await visitor.locator('body').getAttribute('data-template'), template)
    const contact = visitor.locator('footer a[data-contact-email]')
    assert.equal(await contact.getAttribute('href'), 'mailto:hello@example.com')
    await expectText(contact, 'Contact: hello@example.com')
    await visitor.locator('[data-product-card]').first().waitFor()
    looks[template] = JSON.stringify(await lookOf(visitor))
    await screenshotSet(visitor, `template-${template}`)
  }
  assert.notEqual(looks.classic, looks.minimal, 'Minimal differs from Classic')
  assert.notEqual(looks.classic, looks.bold, 'Bold differs from Classic')
  assert.notEqual(looks.minimal, looks.bold, 'Bold differs from Minimal')
  // The header itself tells them apart, not only the page below it.
  const headers = TEMPLATES.map((t) => JSON.stringify((JSON.parse(looks[t]) as { header: unknown }).header))
  assert.equal(new Set(headers).size, 3, headers.join('\n'))
})

browserTest('the owner previews a template before saving it; visitors keep the saved one', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  await visit(page, url(host, '/home/settings/page'))
  assert.equal(await page.locator('form[data-page-settings] [name="template"]').inputValue(), 'classic')

  // "Preview Bold" opens the school home in a new tab, in Bold, with a banner saying it is a preview.
  const [preview] = await Promise.all([page.context().waitForEvent('page'), page.getByRole('link', { name: /Preview Bold/ }).click()])
  await preview.waitForLoadState()
  assert.equal(new URL(preview.url()).search, '?preview-template=bold')
  assert.equal(await preview.locator('body').getAttribute('data-template'), 'bold')
  await expectText(preview.getByRole('status').filter({ hasText: 'previewing' }), /You are previewing the Bold template/)
  await preview.getByRole('link', { name: 'Back to page settings' }).click()
  await expectUrl(preview, host, '/home/settings/page')
  await preview.close()

  // A visitor at the same address, twice (the second from the page cache), sees Classic and no banner.
  const visitor = await (await newContext()).newPage()
  for (let i = 0; i < 2; i++) {
    await visit(visitor, url(host, '/?preview-template=bold'))
    assert.equal(await visitor.locator('body').getAttribute('data-template'), 'classic')
    assert.equal(await visitor.locator('[data-template-preview]').count(), 0)
  }

  // Saved: every visitor gets it.
  await saveSettings(page, host, { template: 'bold' })
  await visit(visitor, url(host, '/'))
  assert.equal(await visitor.locator('body').getAttribute('data-template'), 'bold')
})
