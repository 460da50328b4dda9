// Issue 19 §1: a hostile redirectTo never takes the browser off the school. Chromium drops the tab
// in "/<TAB>/evil.example" and would leave for http://evil.example/ if the server passed it on.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { browserTest, demoSchool, demoUser, expectUrl, platformUrl, subdomain, url, visit, PLATFORM } from './support.ts'

const code = demoSchool('code-academy')
const CODE = subdomain(code.slug)
const owner = demoUser(code, 'owner')

/** Every host the page asked for: none may be evil.example. */
function watchHosts(page: Page) {
  const hosts = new Set<string>()
  page.context().on('request', (req) => hosts.add(new URL(req.url()).hostname))
  return hosts
}

async function logInWith(page: Page, loginPath: string) {
  await visit(page, url(CODE, loginPath))
  await page.locator('form [name="email"]').fill(owner.email)
  await page.locator('form [name="password"]').fill(owner.password)
  await page.locator('main form button[type="submit"]').click()
}

for (const javaScriptEnabled of [true, false]) {
  browserTest(
    `/login?redirectTo=/%09/evil.example stays on the school after logging in (${javaScriptEnabled ? 'with' : 'without'} JavaScript)`,
    async ({ page }) => {
      const hosts = watchHosts(page)
      await logInWith(page, '/login?redirectTo=/%09/evil.example')
      // The owner's home on the school's own host, not http://evil.example/.
      await expectUrl(page, CODE, '/home')
      assert.equal(new URL(page.url()).hostname, CODE)
      assert.ok(!hosts.has('evil.example'), `the browser asked evil.example: ${[...hosts].join(', ')}`)
      assert.equal(await page.locator('main h1').count() > 0, true)
    },
    { javaScriptEnabled, ownClientIp: true },
  )
}

browserTest(
  'a same-school redirectTo is still followed after logging in',
  async ({ page }) => {
    await logInWith(page, `/login?redirectTo=${encodeURIComponent('/home/notifications')}`)
    await expectUrl(page, CODE, '/home/notifications')
  },
  { ownClientIp: true },
)

browserTest('/set-language with a tab-smuggled redirectTo stays on the platform', async ({ page }) => {
  const hosts = watchHosts(page)
  await page.goto(platformUrl('/set-language?lang=pl&redirectTo=/%09/evil.example/phish'))
  await expectUrl(page, PLATFORM, '/')
  assert.ok(!hosts.has('evil.example'), `the browser asked evil.example: ${[...hosts].join(', ')}`)
  const lang = (await page.context().cookies(platformUrl('/'))).find((c) => c.name === 'lang')
  assert.equal(lang?.value, 'pl')
})
