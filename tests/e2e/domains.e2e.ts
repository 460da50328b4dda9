// A creator connects a custom domain and watches it go live, with the local DNS and Cloudflare
// peers playing the outside world (issue 3 acceptance).
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { alertBox, browserTest, expectText, expectUrl, fieldError, heading, newSchool, platformUrl, signUp, snap, subdomain, url, visit } from './support.ts'

const statusBadge = (page: Page, hostname: string) => page.locator(`[data-domain="${hostname}"] [data-domain-status]`)

browserTest(
  'a creator connects a domain, sets the records and the school answers there once active',
  async ({ page, newContext }) => {
    const school = newSchool('en')
    const host = subdomain(school.slug)
    const custom = `kurs.${school.slug}.test`
    await signUp(page, school)
    await expectUrl(page, host, '/home')
    await page.getByRole('link', { name: /Connect your own domain/ }).click()
    await expectUrl(page, host, '/home/settings/domain')
    await expectText(heading(page), 'Domain')

    // Bad input first: a clear error, nothing stored.
    await page.locator('form [name="hostname"]').fill('http://x')
    await page.getByRole('button', { name: 'Connect domain' }).click()
    await expectText(fieldError(page, 'hostname'), 'Type the domain name only, without http://, a path or a port')

    await page.locator('form [name="hostname"]').fill(custom)
    await page.getByRole('button', { name: 'Connect domain' }).click()
    await expectText(page.getByRole('status'), 'Domain added. Now set the DNS records below.')
    const card = page.locator(`[data-domain="${custom}"]`)
    await expectText(statusBadge(page, custom), 'Waiting for DNS')
    // Exact records to set: the CNAME and the TXT records, each with a copy button.
    await expectText(card.locator('tr[data-record-type="CNAME"]'), custom)
    assert.ok((await card.locator('tr[data-record-type="TXT"]').count()) >= 1, 'ownership / certificate TXT records are listed')
    assert.ok((await card.getByRole('button', { name: 'Copy' }).count()) >= 4)
    await snap(page, 'domain-waiting-for-dns')

    // Not before it is active.
    const visitor = await (await newContext()).newPage()
    await visit(visitor, url(custom, '/'), 404)
    await expectText(heading(visitor), 'No school at this address')

    // The creator sets the records at "their DNS provider" (the dev DNS peer).
    const dns = await (await newContext()).newPage()
    await visit(dns, platformUrl('/dev/dns'))
    await dns.getByRole('button', { name: `Set all records for ${custom}` }).click()
    await expectText(dns.locator('main table'), custom)

    // The settings page polls; the states move on as the peers see the records.
    await expectText(statusBadge(page, custom), 'Active', 90_000)
    await expectText(card.locator('details'), 'Issuing certificate').catch(() => {})
    await snap(page, 'domain-active')

    await visit(visitor, url(custom, '/'))
    await expectText(heading(visitor), `Welcome to ${school.name}`)

    // Primary: the creator is carried over signed in, and the subdomain now redirects there.
    await card.getByRole('button', { name: 'Make primary' }).click()
    await expectUrl(page, custom, '/home/settings/domain')
    await page.locator('[data-done="primary_set"]').waitFor()
    await expectText(page.getByRole('status'), `Visitors will now be sent to ${custom}.`)
    const redirected = await visitor.goto(url(host, '/courses'))
    assert.equal(redirected!.url(), url(custom, '/courses'))
    // Issue 23 item 8: the page says which address is primary and that the others redirect to it.
    await expectText(page.locator('[data-primary-host]'), custom)
    await expectText(page.locator('[data-primary-explained]'), new RegExp(`Visitors to ${host.replace(/\./g, '\\.')}.* are redirected to ${custom.replace(/\./g, '\\.')}`))

    // Removal needs DELETE typed; removing the host the creator is on takes them back to the subdomain.
    const removeForm = page.locator(`[data-domain="${custom}"] form`).filter({ has: page.getByRole('button', { name: 'Remove' }) })
    await removeForm.locator('[name="confirm"]').fill('delete')
    await removeForm.getByRole('button', { name: 'Remove' }).click()
    await expectText(alertBox(page), 'Type DELETE in capital letters to remove the domain')
    await removeForm.locator('[name="confirm"]').fill('DELETE')
    await removeForm.getByRole('button', { name: 'Remove' }).click()
    await expectUrl(page, host, '/home/settings/domain')
    await page.locator('[data-done="removed"]').waitFor()
    await expectText(page.getByRole('status'), 'Domain removed.')
    await visit(visitor, url(custom, '/'), 404)
    await visit(visitor, url(host, '/'))
  },
)
