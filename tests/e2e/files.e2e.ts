// Private files (issue 4 §3) in Akademia Kasi (Polish): the owner creates a file product, uploads
// a PDF (and sees a disguised .exe refused, in Polish), grants Jan access; Jan finds it in his
// panel and downloads it with its original name; Ola, without access, gets 404 at the same URL.
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { browserTest, demoSchool, demoUser, expectText, expectUrl, heading, logIn, snap, subdomain, unique, url, visit } from './support.ts'

const kasi = demoSchool('akademia-kasi')
const KASI = subdomain(kasi.slug)
const FILENAME = 'Zeszyt ćwiczeń.pdf'
const PDF = Buffer.from(`%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n`)
const EXE = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)])

browserTest('a file product: upload, grant, the student downloads it with its name, others get 404', async ({ page, newContext }) => {
  const owner = demoUser(kasi, 'owner')
  await logIn(page, KASI, owner.email, owner.password)
  await expectUrl(page, KASI, '/home')
  await page.locator('[data-instructor-nav]').getByRole('link', { name: 'Pliki', exact: true }).click()
  await expectUrl(page, KASI, '/home/files')
  await expectText(heading(page), 'Pliki')

  const title = unique('Zeszyt budżetowy')
  await page.locator('main form [name="title"]').fill(title)
  await page.getByRole('button', { name: 'Utwórz', exact: true }).click()
  await page.waitForURL(/\/home\/files\/[a-z2-7]+$/)
  await page.locator('[data-done="created"]').waitFor()
  await expectText(page.getByRole('status'), 'Produkt utworzony')

  // Two files at once: a real PDF and an .exe renamed .pdf (refused after upload, in Polish).
  await page.locator('[data-file-upload] input[type="file"]:not([disabled])').setInputFiles([
    { name: FILENAME, mimeType: 'application/pdf', buffer: PDF },
    { name: 'faktura.pdf', mimeType: 'application/pdf', buffer: EXE },
  ])
  await expectText(page.locator(`[data-upload-item="${FILENAME}"] [role="status"]`), 'Przesłano')
  await expectText(page.locator('[data-upload-item="faktura.pdf"] [role="alert"]'), 'Nie można przesłać tego pliku: jego zawartość nie jest dozwolonym typem pliku.')
  const listed = page.locator(`[data-product-files] [data-file-name="${FILENAME}"]`)
  await listed.waitFor()
  assert.equal(await page.locator('[data-product-files] [data-file-name="faktura.pdf"]').count(), 0)
  const href = await listed.locator('a[data-download]').getAttribute('href')
  assert.match(href ?? '', /^\/files\/[a-z2-7]+\/[a-z2-7]+$/)

  const grant = page.locator('form:has(input[name="intent"][value="grant"])')
  await grant.locator('[name="email"]').fill('jan@example.com')
  await grant.locator('[name="reason"]').fill('Prezent')
  await grant.getByRole('button', { name: 'Przyznaj dostęp' }).click()
  await expectText(page.getByRole('status'), 'Dostęp przyznany')
  await page.locator('[data-access-email="jan@example.com"][data-access-status="active"]').waitFor()
  await snap(page, 'file-product-owner')

  // Jan: "Moje pliki" in his panel, the download keeps the original name.
  const jan = demoUser(kasi, 'student', 'jan@example.com')
  const janContext = await newContext()
  const janPage = await janContext.newPage()
  await logIn(janPage, KASI, jan.email, jan.password)
  await expectUrl(janPage, KASI, '/panel')
  // The school's site survey card sits in the corner over the page: Jan postpones it, as a student would.
  await janPage.locator('[data-site-survey]').getByRole('button', { name: 'Przypomnij mi później' }).click()
  const product = janPage.locator(`[data-my-files] [data-file-product="${title}"]`)
  await expectText(product, FILENAME)
  await snap(janPage, 'file-product-panel')
  const link = product.locator(`[data-file-name="${FILENAME}"] a[data-download]`)
  assert.equal(await link.getAttribute('href'), href)
  // The browser follows /files/… to a signed URL on the media host and saves what it answers.
  const served = janPage.waitForResponse((r) => new URL(r.url()).pathname.startsWith('/private/'))
  const [download] = await Promise.all([janPage.waitForEvent('download'), link.click()])
  assert.equal(download.suggestedFilename(), FILENAME)
  const res = await served
  assert.equal(res.status(), 200)
  assert.match(new URL(res.url()).pathname, /^\/private\/tenants\/[a-z0-9_-]+\/file_product\/[a-z2-7]{26}\.pdf$/)
  assert.equal(res.headers()['content-type'], 'application/pdf')
  assert.equal(res.headers()['content-disposition'], `attachment; filename="Zeszyt cwiczen.pdf"; filename*=UTF-8''Zeszyt%20%C4%87wicze%C5%84.pdf`)
  assert.deepEqual(readFileSync((await download.path())!), PDF)

  // Ola has no access: the same URL is the school's 404 page.
  const ola = demoUser(kasi, 'student', 'ola@example.com')
  const olaPage = await (await newContext()).newPage()
  await logIn(olaPage, KASI, ola.email, ola.password)
  await expectUrl(olaPage, KASI, '/panel')
  await visit(olaPage, url(KASI, href!), 404)
  await expectText(heading(olaPage), 'Nie znaleziono strony')
})
