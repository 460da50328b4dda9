// A page-cache hit in a real browser (issue 21 §5, ADR 015): the stored page is sent as it was
// stored, and its CSP allows the inline scripts by their SHA-256 hashes instead of a nonce. Chromium
// must run them all — the page hydrates and navigates client-side — with no CSP violation.
import assert from 'node:assert/strict'
import { browserTest, expectText, expectUrl, heading, newSchool, publishPaidCourse, signUp, subdomain, url } from './support.ts'

browserTest('a course page served from the page cache hydrates under its hash-based CSP', async ({ page, newContext }) => {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  await signUp(page, school)
  await expectUrl(page, host, '/home')
  const slug = await publishPaidCourse(page, host, 'Cached page course', '49')

  // An anonymous visitor; every CSP violation the page reports is recorded from the first script on.
  const visitorContext = await newContext()
  await visitorContext.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI} ${event.sample}`))
  })
  const visitor = await visitorContext.newPage()
  const consoleCsp: string[] = []
  visitor.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) consoleCsp.push(message.text())
  })

  const first = await visitor.goto(url(host, `/${slug}`))
  assert.equal(first?.status(), 200)
  assert.equal(first?.headers()['x-page-cache'], 'miss', 'the first anonymous visit renders and stores the page')
  const hit = await visitor.goto(url(host, `/${slug}`))
  assert.equal(hit?.status(), 200)
  assert.match(hit?.headers()['x-page-cache'] ?? '', /^hit/, 'the second visit is a page-cache hit')
  const csp = hit?.headers()['content-security-policy'] ?? ''
  assert.match(csp, /script-src 'self'( 'sha256-[A-Za-z0-9+/]+=*')+;/, csp)
  assert.doesNotMatch(csp, /nonce-/)
  await expectText(heading(visitor), 'Cached page course')

  // Hydrated: the breadcrumb link navigates client-side (a single-fetch data request, no new document).
  const documents: string[] = []
  const dataRequests: string[] = []
  visitor.on('request', (request) => {
    if (request.resourceType() === 'document') documents.push(request.url())
    if (new URL(request.url()).pathname.endsWith('.data')) dataRequests.push(request.url())
  })
  await visitor.locator('nav a[href="/courses"]').first().click()
  await expectUrl(visitor, host, '/courses')
  await expectText(heading(visitor), 'Courses')
  assert.deepEqual(documents, [], 'no document request: React handled the click')
  assert.ok(dataRequests.length > 0, 'the catalogue came as data')

  assert.deepEqual(await visitor.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations), [])
  assert.deepEqual(consoleCsp, [])
})
