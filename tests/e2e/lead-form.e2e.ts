// Lead form block (seed 000 §2 widget 2, §4, §5, §8): required and email checks mark fields with
// no message and send nothing; a failed post resets loading after 2 s; success replaces the form
// and the owner sees the lead in /home/leads. Without JavaScript the native post works too.
import assert from 'node:assert/strict'
import type { Page, Request } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectText, logIn, settleImages, snap, subdomain, unique, url, visit } from './support.ts'

const readInvalidNames = (page: Page, form: string) => page.locator(`${form} [data-invalid="true"]`).evaluateAll((els) => els.map((el) => el.getAttribute('name')).sort())

/** The names marked invalid once they settle on `expected` (React commits the click's state a tick later), or what is there after 5 s. */
async function invalidNames(page: Page, form: string, expected: string[]) {
  const deadline = Date.now() + 5000
  let names = await readInvalidNames(page, form)
  while (JSON.stringify(names) !== JSON.stringify(expected) && Date.now() < deadline) {
    await page.waitForTimeout(50)
    names = await readInvalidNames(page, form)
  }
  return names
}

browserTest('lead form: marks invalid fields without a message, recovers from a failure, stores the lead for the owner', async ({ page, newContext }) => {
  const school = demoSchool('code-academy')
  const host = subdomain(school.slug)
  await visit(page, url(host, '/p/offer'))
  const block = '#block-demo-code-academy-lead_form'
  const form = page.locator(`${block} form`)
  await page.locator(`${block} form[data-hydrated]`).waitFor()
  await settleImages(page)
  // The reviews block above the form loads lazily once it nears the viewport and then grows: let it
  // load before clicking, so the layout does not shift under the pointer between aim and click.
  await form.scrollIntoViewIfNeeded()
  await page.locator('#block-demo-code-academy-reviews [data-review]').first().waitFor()
  await page.waitForFunction(() => document.querySelector('#block-demo-code-academy-reviews')?.getAttribute('data-reviews-state') !== 'loading')
  const posts: Request[] = []
  page.on('request', (req) => {
    if (req.method() === 'POST' && new URL(req.url()).pathname === '/lead') posts.push(req)
  })
  const before = (await form.innerText()).trim()
  const submit = form.getByRole('button', { name: 'Send me the free lesson' })

  await submit.click()
  assert.deepEqual(await invalidNames(page, block, ['consent', 'email', 'name']), ['consent', 'email', 'name'])
  assert.equal(await form.locator('[name="email"]').getAttribute('aria-invalid'), 'true')
  assert.equal((await form.innerText()).trim(), before, 'no message text appears')
  assert.equal(posts.length, 0, 'nothing is sent')

  const email = `${unique('lead')}@example.com`
  await form.getByLabel('First name').fill('Eve')
  await form.getByLabel('Email').fill('eve@example')
  await submit.click()
  assert.deepEqual(await invalidNames(page, block, ['consent', 'email']), ['consent', 'email'])
  await form.getByLabel('Email').fill(email)
  await form.getByLabel('I agree to receive the newsletter').check()
  await form.getByLabel('What interests you most?').selectOption('projects')

  // A failed post (the network drops it): loading, then the button is back after 2 s, with no message.
  await page.route('**/lead', (route) => route.abort('failed'))
  const failedAt = Date.now()
  await submit.click()
  await form.locator('[data-lead-loading]').waitFor()
  assert.ok(await submit.isDisabled(), 'loading while the post is out')
  await page.waitForFunction((sel) => !document.querySelector(`${sel} [data-lead-loading]`), block, { timeout: 5000 })
  const resetAfter = Date.now() - failedAt
  assert.ok(resetAfter >= 1800, `loading reset after ${resetAfter} ms`)
  assert.equal((await form.innerText()).trim(), before, 'still no message')
  await page.unroute('**/lead')

  await submit.click()
  const success = page.locator(`${block} [data-lead-success]`)
  await expectText(success.getByRole('heading'), 'Thank you')
  await expectText(success, /Check your inbox/)
  assert.equal(await page.locator(`${block} form`).count(), 0, 'the success view replaces the form')
  const sent = posts.at(-1)!
  assert.equal(sent.headers()['x-requested-with'], 'XMLHttpRequest')
  const body = new URLSearchParams(sent.postData() ?? '')
  assert.equal(body.get('campaign'), 'launch')
  assert.equal(body.get('block_id'), 'demo-code-academy-lead_form')
  await snap(page, 'lead-success')

  // The owner sees it in the instructor panel.
  const ownerPage = await (await newContext()).newPage()
  const owner = demoUser(school, 'owner')
  await logIn(ownerPage, host, owner.email, owner.password)
  await ownerPage.waitForURL(/\/home/)
  await visit(ownerPage, url(host, '/home/leads'))
  await expectText(ownerPage.locator(`[data-lead-email="${email}"]`), /Eve/)
}, { ownClientIp: true })

browserTest(
  'lead form without JavaScript: the native post marks fields, then shows the success view (Polish)',
  async ({ page }) => {
    const school = demoSchool('akademia-kasi')
    const host = subdomain(school.slug)
    await visit(page, url(host, '/p/oferta'))
    const block = '#block-demo-akademia-kasi-lead_form'
    await page.locator(`${block} button[type="submit"]`).click()
    await page.waitForURL(/lead=invalid/)
    assert.deepEqual(await invalidNames(page, block, ['consent', 'email', 'name']), ['consent', 'email', 'name'])
    await page.locator(`${block} [name="name"]`).fill('Ola')
    await page.locator(`${block} [name="email"]`).fill(`${unique('bez-js')}@example.com`)
    await page.locator(`${block} [name="consent"]`).check()
    await page.locator(`${block} button[type="submit"]`).click()
    await page.waitForURL(/lead=sent/)
    await expectText(page.locator(`${block} [data-lead-success] h2`), 'Dziękujemy')
    await expectText(page.locator(`${block} [data-lead-success]`), /Sprawdź skrzynkę/)
  },
  { javaScriptEnabled: false, ownClientIp: true },
)
