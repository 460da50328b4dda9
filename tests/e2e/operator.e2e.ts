// The platform operator suspends and reactivates a school.
import type { Page } from 'playwright-core'
import { alertBox, browserTest, demoOperator, expectText, expectUrl, heading, newSchool, operatorLogIn, platformUrl, signUp, snap, subdomain, url, visit } from './support.ts'

/** Password only: the first step of an operator's sign-in. */
async function submitPassword(page: Page, email: string, password: string) {
  await visit(page, platformUrl('/operator/login'))
  await expectText(heading(page), 'Operator login')
  await page.locator('form [name="email"]').fill(email)
  await page.locator('form [name="password"]').fill(password)
  await page.locator('main form button[type="submit"]').click()
}

browserTest('the operator console requires an operator login', async ({ page }) => {
  await page.goto(platformUrl('/operator'))
  await expectUrl(page, 'localhost', '/operator/login')
  const operator = demoOperator('operator@coursefront.test')
  await submitPassword(page, operator.email, 'not-the-password')
  await expectText(alertBox(page), 'These credentials do not match our records.')
})

browserTest(
  'operator suspends a school (503 page) and reactivates it',
  async ({ page, newContext }) => {
    // A school of its own, so the other tests never meet a suspended school.
    const school = newSchool('pl')
    const host = subdomain(school.slug)
    const ownerPage = await (await newContext()).newPage()
    await signUp(ownerPage, school)
    await expectUrl(ownerPage, host, '/home')
    await expectText(heading(ownerPage), 'Panel instruktora')

    await operatorLogIn(page, demoOperator('operator@coursefront.test'))
    await visit(page, platformUrl('/operator/schools'))
    await expectText(heading(page), 'Schools')
    const row = page.locator(`tr[data-school="${school.slug}"]`)
    await expectText(row, school.name)
    await expectText(row, 'Active')
    await snap(page, 'operator-console')

    await row.getByRole('button', { name: 'Suspend' }).click()
    await expectText(page.getByRole('status'), `${school.name} is suspended.`)
    await expectText(row, 'Suspended')

    // Visitors and the signed-in owner alike get the suspended page, in the school's language.
    const visitor = await (await newContext()).newPage()
    for (const [p, path] of [
      [visitor, '/'],
      [visitor, '/login'],
      [ownerPage, '/home'],
    ] as const) {
      await visit(p, url(host, path), 503)
      await expectText(heading(p), 'Ta szkoła jest tymczasowo niedostępna')
      await expectText(p.locator('main'), school.name)
    }
    await snap(visitor, 'school-suspended')
    // Other schools are unaffected.
    await visit(visitor, url(subdomain('code-academy'), '/'))

    await row.getByRole('button', { name: 'Reactivate' }).click()
    await expectText(page.getByRole('status'), `${school.name} is active again.`)
    await expectText(row, 'Active')

    await visit(visitor, url(host, '/'))
    await expectText(heading(visitor), `Witamy w ${school.name}`)
    await visit(ownerPage, url(host, '/home'))
    await expectText(heading(ownerPage), 'Panel instruktora')
  },
  { allowStatuses: [503] },
)
