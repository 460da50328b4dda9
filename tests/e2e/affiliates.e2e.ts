// Affiliate partners in Chromium (issue 24 item 5), on the demo school: the owner adds a partner
// (the code is suggested from the name), copies the partner's link to a course, a visitor opens
// it (the `recommendation` cookie is set and the address loses `ref`), buys with the test
// provider (success clears the cookie), and the owner sees the sale and the commission owed; the
// partner's private stats page shows it too. Needs the ?ref= hook in server.ts.
import assert from 'node:assert/strict'
import { browserTest, buyAsNewVisitor, demoSchool, demoUser, expectText, fieldError, logIn, snap, subdomain, unique, url, visit } from './support.ts'

const school = demoSchool('code-academy')
const host = subdomain(school.slug)
const owner = demoUser(school, 'owner')

browserTest("the owner adds a partner, a visitor buys through the partner's link, the owner sees the commission", async ({ page, newContext }) => {
  await logIn(page, host, owner.email, owner.password)
  await page.waitForURL(/\/home/)
  await visit(page, url(host, '/home/partners'))
  await expectText(page.locator('main h1').first(), 'Partners')

  const name = `Rita ${unique('ref')
    .replace(/[^a-z0-9]/gi, '')
    .slice(-8)}`
  const form = page.locator('form[data-partner-create]')
  await form.locator('[name="name"]').fill(name)
  // The code follows the name as it is typed.
  const code = await form.locator('[name="code"]').inputValue()
  assert.equal(
    code,
    name
      .toUpperCase()
      .replace(/[^A-Z0-9]/g, '')
      .slice(0, 20),
  )
  await form.locator('[name="email"]').fill(`${unique('rita')}@partner.test`)
  await form.locator('[name="commissionKind"]').selectOption('percent')
  await form.locator('[name="commissionValue"]').fill('10')
  await form.locator('[name="cookieDays"]').fill('30')
  await form.locator('button[type="submit"]').click()
  await page.waitForURL(/\/home\/partners\/[a-z0-9]+$/)
  await page.locator('[data-done="created"]').waitFor()
  const partnerPage = page.url()

  // A second partner with the same code is refused.
  await visit(page, url(host, '/home/partners'))
  await form.locator('[name="name"]').fill('Someone Else')
  await form.locator('[name="email"]').fill(`${unique('else')}@partner.test`)
  await form.locator('[name="code"]').fill(code.toLowerCase())
  await form.locator('[name="commissionValue"]').fill('5')
  await form.locator('button[type="submit"]').click()
  await expectText(fieldError(page, 'code'), 'This code is already used')

  await visit(page, partnerPage)
  const link = await page.getByLabel('Link to JavaScript Foundations').inputValue()
  assert.equal(link, url(host, `/javascript-foundations?ref=${code}`))
  const statsLink = await page.locator('[data-stats-link]').inputValue()
  await snap(page, 'partner-page')

  // The visitor: the link sets the cookie and drops ref from the address.
  const visitor = await newContext()
  const buyer = await visitor.newPage()
  await buyer.goto(link)
  await buyer.waitForURL(url(host, '/javascript-foundations'))
  const cookie = (await visitor.cookies()).find((c) => c.name === 'recommendation')
  assert.ok(cookie, 'the recommendation cookie is set')
  assert.equal(cookie.httpOnly, true)
  assert.equal(cookie.sameSite, 'Lax')
  await buyAsNewVisitor(buyer, host, 'javascript-foundations', { name: 'Ben Buyer', email: `${unique('ben')}@example.com`, password: 'ben-pass-12' }, 'en')
  assert.equal(
    (await visitor.cookies()).find((c) => c.name === 'recommendation'),
    undefined,
    'success clears the cookie',
  )

  // The owner sees the sale and the commission owed (10 % of $49.00).
  await visit(page, partnerPage)
  await expectText(page.locator('[data-figures-currency="USD"] [data-owed]'), '$4.90')
  assert.equal(await page.locator('[data-sale]').count(), 1)

  // The partner's private page, without logging in.
  const partner = await (await newContext()).newPage()
  await visit(partner, statsLink)
  await expectText(partner.locator('[data-figures-currency="USD"] [data-owed]'), '$4.90')
  assert.equal(await partner.getByText('Ben Buyer').count(), 0)
})
