// Certificates (issue 24 item 2) in Chromium, on a new school: the owner publishes a course, turns
// its certificates on and sets a Polish certificate with a signature name; a student who bought it
// completes its lecture, finds the certificate under /panel/certificates, downloads the PDF (its
// text, read with pdfjs-dist, carries the Polish name with diacritics and the course title) and
// opens the verification page; the owner revokes it and the page says revoked; another school's
// host answers 404 for the id.
import assert from 'node:assert/strict'
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs'
import { browserTest, buyAsNewVisitor, expectText, expectUrl, newSchool, publishPaidCourse, signUp, subdomain, unique, url, visit } from './support.ts'

async function pdfText(bytes: Uint8Array) {
  const doc = await getDocument({ data: bytes, useSystemFonts: false, isEvalSupported: false }).promise
  const content = await (await doc.getPage(1)).getTextContent()
  return content.items.map((item) => ('str' in item ? item.str : '')).join('\n')
}

browserTest('a student who completed a course downloads a Polish certificate and verifies it; a revoked one shows as revoked', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school, 'USD')
  await expectUrl(page, host, '/home')
  await visit(page, url(host, '/home/settings/page'))
  await page.locator('form [name="authorName"]').fill('Ewa Testowa')
  await page.locator('form [name="contactEmail"]').fill(school.owner.email)
  await page.locator('form[data-page-settings]').getByRole('button', { name: 'Save changes' }).click()
  await page.locator('[data-done="saved"]').waitFor()
  const title = `Zażółć gęślą jaźń ${unique('c').slice(-6)}`
  const slug = await publishPaidCourse(page, host, title, '10')

  // The owner turns certificates on for the course, then picks Polish and a signature name.
  await visit(page, url(host, '/home/certificates'))
  await expectText(page.locator('main h1').first(), 'Certificates')
  const courseRow = page.locator('[data-certificate-courses] tr', { hasText: title })
  await expectText(courseRow.locator('[data-certificates-enabled]'), 'Off')
  await page.getByRole('button', { name: `Turn on certificates for ${title}` }).click()
  await page.locator('[data-done="toggled"]').waitFor()
  await expectText(courseRow.locator('[data-certificates-enabled]'), 'On')
  await page.getByRole('link', { name: `Settings of the certificate of ${title}` }).click()
  await page.waitForURL(/\/home\/certificates\/[a-z2-7]+$/)
  const settings = page.locator('form[data-certificate-settings]')
  await settings.getByLabel('Language of the certificate').selectOption('pl')
  await settings.getByLabel('Signature name').fill('Ewa Testowa')
  await settings.getByRole('button', { name: 'Save settings' }).click()
  await page.locator('[data-done="saved"]').waitFor()
  assert.equal(await settings.getByLabel('Issue certificates for this course').isChecked(), true)

  // A student buys the course and completes its only lecture.
  const student = await (await newContext()).newPage()
  await buyAsNewVisitor(student, host, slug, { name: 'Łukasz Żółć', email: `${unique('lukasz')}@example.com`, password: 'lukasz-pass-1' }, 'en')
  await visit(student, url(host, `/${slug}/watch`))
  await student.getByRole('button', { name: 'Mark as complete' }).click()
  await student.locator('[data-complete-toggle="completed"]').waitFor()

  // The certificate is issued and offered; the PDF downloads (requested as the student's browser would).
  await visit(student, url(host, '/panel/certificates'))
  const offer = student.locator('[data-certificate-offer-state="issued"]')
  await offer.waitFor()
  const href = await student.locator('[data-certificate-download]').getAttribute('href')
  const id = href?.match(/^\/panel\/certificates\/([a-z2-7]{32})$/)?.[1]
  assert.ok(id, `certificate link ${href}`)
  // Fetched by the page itself: Chromium resolves the school's host (Node does not).
  const download = await student.evaluate(async (path) => {
    const res = await fetch(path)
    return { status: res.status, type: res.headers.get('Content-Type'), disposition: res.headers.get('Content-Disposition'), bytes: Array.from(new Uint8Array(await res.arrayBuffer())) }
  }, href!)
  assert.equal(download.status, 200)
  assert.equal(download.type, 'application/pdf')
  assert.match(download.disposition ?? '', /^attachment; filename="certificate-.+\.pdf"$/)
  const text = await pdfText(Uint8Array.from(download.bytes))
  assert.match(text, /Łukasz Żółć/)
  assert.ok(text.includes(title), 'the course title is in the PDF')
  assert.match(text, /Certyfikat ukończenia/)
  assert.match(text, /Ewa Testowa/)
  assert.ok(text.includes(`/certificates/${id}`), 'the verification address is printed')
  // A visitor asking for the file is sent to log in, never given it.
  const anonymous = await (await newContext()).newPage()
  await anonymous.goto(url(host, href!))
  assert.equal(new URL(anonymous.url()).pathname, '/login')

  // The verification page from the panel's link.
  await student.getByRole('link', { name: 'Verification page' }).click()
  await expectUrl(student, host, `/certificates/${id}`)
  await expectText(student.locator('[data-certificate-verdict]'), 'This certificate is valid.')
  await expectText(student.locator('[data-certificate-student]'), 'Łukasz Żółć')
  await expectText(student.locator('[data-certificate-course]'), title)

  // The owner revokes it with a reason: the public page says so, to anyone.
  await visit(page, url(host, '/home/certificates'))
  const row = page.locator(`[data-certificate-row="${id}"]`)
  await row.getByLabel('Reason').fill('Issued by mistake')
  await row.getByRole('button', { name: 'Revoke the certificate of Łukasz Żółć' }).click()
  await page.locator('[data-done="revoked"]').waitFor()
  await expectText(row.locator('[data-certificate-state]'), /^Revoked on /)
  await visit(anonymous, url(host, `/certificates/${id}`))
  await expectText(anonymous.locator('[data-certificate-verdict="revoked"]'), /^This certificate was revoked on /)
  // Another school's host does not know the id.
  await visit(anonymous, url(subdomain('code-academy'), `/certificates/${id}`), 404)
})
