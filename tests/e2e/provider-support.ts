// Shared by the provider e2e files (issues 25 and 26): the dev peers' development accounts and the
// owner's "connect a provider" step, the checkout a buyer fills, the provider's hosted card fields,
// the dev peers' control API, and the school on its own domain where strangers buy and the owner
// refunds. The memberships' helpers are in provider-cards-support.ts.
import assert from 'node:assert/strict'
import { request as httpRequest } from 'node:http'
import type { BrowserContext, Page } from 'playwright-core'
import { expectText, expectUrl, logIn, newSchool, platformUrl, PORT, publishPaidCourse, signUp, subdomain, unique, url, visit, type NewSchool } from './support.ts'

export type Provider = 'p24' | 'tpay' | 'paypal' | 'braintree' | 'paylane' | 'payu' | 'stripe'

/** As the product names them (the "Change the card at …" buttons). */
export const PROVIDER_NAME: Record<Provider, string> = { p24: 'Przelewy24', tpay: 'Tpay', paypal: 'PayPal', braintree: 'Braintree', paylane: 'Paylane', payu: 'PayU', stripe: 'Stripe' }

/**
 * The dev peers' development accounts (the exported constants of workers/dev-peers/src/<p>.ts;
 * PayU's and Stripe's: workers/dev-peers/wrangler.toml, PEER_PAYU_*, PEER_STRIPE_SECRET_KEY).
 */
export const CREDENTIALS: Record<Provider, Record<string, string>> = {
  p24: { merchantId: '100001', posId: '100001', apiKey: 'coursefront_dev_p24_reports_key_01', crc: 'cfdevp24crc00001' },
  tpay: { clientId: '1010-c0a5e7d1f2b34a59', clientSecret: 'coursefront_dev_tpay_secret_0000000000000000000000', merchantId: '1010' },
  paypal: { clientId: 'AcoursefrontDevPaypalClient0000000000000001', clientSecret: 'EcoursefrontDevPaypalSecret00000000000000001' },
  braintree: { merchantId: 'coursefrontdev', publicKey: 'cf_dev_braintree_public', privateKey: 'cf_dev_braintree_private_key_00000000', merchantAccountId: 'coursefront_pln' },
  paylane: {
    apiLogin: 'coursefront_dev',
    apiPassword: 'coursefront_dev_paylane_password_0000',
    publicApiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
    notificationToken: 'coursefront_dev_paylane_notify_token_00',
  },
  payu: { posId: '300746', clientId: '300746', clientSecret: 'coursefront_dev_payu_client_secret_000', secondKey: 'coursefront_dev_payu_second_key_0000' },
  stripe: { secretKey: 'sk_test_coursefront_dev_0000000000000000' },
}

const SECRET_FIELD: Record<Provider, string> = { p24: 'crc', tpay: 'clientSecret', paypal: 'clientSecret', braintree: 'privateKey', paylane: 'apiPassword', payu: 'clientSecret', stripe: 'secretKey' }

/** The owner connects `provider` with the peer's development credentials (test mode where the form asks, PLN). */
export async function connectProvider(page: Page, host: string, provider: Provider) {
  await visit(page, url(host, '/home/settings/payments'))
  const form = page.locator(`[data-payment-form="${provider}"]`)
  for (const [name, value] of Object.entries(CREDENTIALS[provider])) await form.locator(`[name="${name}"]`).fill(value)
  await form.locator('[name="currency"]').selectOption('PLN')
  const sandbox = form.locator('[name="sandbox"]')
  if (await sandbox.count()) await sandbox.selectOption('yes')
  await form.getByRole('button', { name: 'Connect' }).click()
  await page.locator('[data-done="created"]').waitFor()
  await page.locator(`[data-payment-integration="${provider}-PLN"]`).waitFor()
  assert.equal((await page.content()).includes(CREDENTIALS[provider][SECRET_FIELD[provider]]!), false, 'the secret is never shown back')
}

// ---- the checkout -------------------------------------------------------------------------------

export type Buyer = { name: string; email: string; password: string }

/** On an open checkout: the new account's fields. */
export async function fillBuyer(page: Page, buyer: Buyer) {
  await page.locator('form [name="name"]').fill(buyer.name)
  await page.locator('form [name="email"]').fill(buyer.email)
  await page.locator('form [name="password"]').fill(buyer.password)
}

/** The terms, and the withdrawal waiver where the product asks for it. */
export async function acceptTerms(page: Page) {
  await page.locator('form [name="terms"]').check()
  const waiver = page.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
}

/** On an open checkout: the buyer's account, the terms and `provider` chosen; not submitted. */
export async function fillCheckout(page: Page, buyer: Buyer, provider: Provider) {
  await fillBuyer(page, buyer)
  await acceptTerms(page)
  await page.locator(`[data-checkout-methods] input[data-provider="${provider}"]`).check()
}

/** Back on the school's `host` from the provider: the pending page says the payment went through. */
export async function paymentSucceeded(page: Page, host: string) {
  await page.waitForURL((u) => u.hostname === host && u.pathname.startsWith('/transaction/'), { timeout: 30_000 })
  await expectText(page.locator('[data-pending-result="success"]'), 'Payment successful', 30_000)
}

// ---- hosted card fields ---------------------------------------------------------------------------

/** The provider's fields on our page loaded: ready, not the "could not be loaded" state (the provider's scripts must run there). */
export async function hostedFieldsReady(page: Page, provider: Provider, what = `${provider}'s card fields`) {
  const form = page.locator(`[data-hosted-card-form="${provider}"]`)
  await form.locator('xpath=self::*[@data-state="ready" or @data-state="failed"]').waitFor()
  assert.equal(await form.getAttribute('data-state'), 'ready', `${what} loaded on ${page.url()}`)
}

/** A card typed into the fields: Braintree's are its frames (pay.localhost), PayLane.js's are nameless inputs of our page. */
export async function typeCard(page: Page, provider: 'braintree' | 'paylane', number: string, expiry = '11/31') {
  const field = (id: string) => (provider === 'braintree' ? page.frameLocator(`#${id} iframe`).locator('#f') : page.locator(`#${id} input`))
  await field('hf-number').fill(number)
  await field('hf-expiry').fill(expiry)
  await field('hf-cvv').fill('123')
}

// ---- the dev peers' control API -------------------------------------------------------------------

/**
 * A request to the dev peers' control API (reached, as the browser does, through the s3 host): GET,
 * or POST of `post` as JSON. agent: false — a connection of its own: Node 20's global agent keeps
 * sockets alive and reuses one the stack may already have closed ("socket hang up").
 */
export function peerRequest(path: string, post?: unknown): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const payload = post === undefined ? '' : JSON.stringify(post)
    const headers = { Host: `s3.localhost:${PORT}`, Accept: 'application/json', ...(post === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) }) }
    const req = httpRequest({ host: '127.0.0.1', port: PORT, path, method: post === undefined ? 'GET' : 'POST', headers, agent: false }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }))
    })
    req.on('error', reject)
    req.end(payload)
  })
}

/** The control API's JSON answer; anything but 200 fails with what it said. */
export async function peerJson<T>(path: string, post?: unknown): Promise<T> {
  const { status, body } = await peerRequest(path, post)
  if (status !== 200) throw new Error(`${path}: HTTP ${status} ${body.slice(0, 200)}`)
  return JSON.parse(body) as T
}

// ---- a school on its own domain (providers-transfer, providers-wallets-cards) -----------------------

export type Shop = { host: string; slug: string; title: string; owner: NewSchool['owner'] }

/**
 * A file's school on its own domain with a paid course (49 PLN) and `providers` connected; made once,
 * by the first test that asks (in that test's browser): a custom domain costs up to a minute of polling.
 */
export function shopOnce(course: string, providers: Provider[]) {
  let shop: Promise<Shop> | undefined
  return (newContext: () => Promise<BrowserContext>) => (shop ??= openShop(newContext, course, providers))
}

async function openShop(newContext: () => Promise<BrowserContext>, course: string, providers: Provider[]): Promise<Shop> {
  const school = newSchool('en')
  const host = subdomain(school.slug)
  const custom = `kurs.${school.slug}.test`
  const owner = await (await newContext()).newPage()
  await signUp(owner, school, 'PLN')
  await expectUrl(owner, host, '/home')

  // The domain first: its settings page (a tab of its own) polls while the owner sets up the shop.
  const domains = await owner.context().newPage()
  await visit(domains, url(host, '/home/settings/domain'))
  await domains.locator('form [name="hostname"]').fill(custom)
  await domains.getByRole('button', { name: 'Connect domain' }).click()
  await domains.locator(`[data-domain="${custom}"]`).waitFor()
  const dns = await (await newContext()).newPage()
  await visit(dns, platformUrl('/dev/dns'))
  await dns.getByRole('button', { name: `Set all records for ${custom}` }).click()
  await expectText(dns.locator('main table'), custom)

  const title = unique(course)
  const slug = await publishPaidCourse(owner, host, title, '49')
  for (const provider of providers) await connectProvider(owner, host, provider)

  await expectText(domains.locator(`[data-domain="${custom}"] [data-domain-status]`), 'Active', 90_000)
  // Closed, not re-checked at the end: the page's grey ":port" of a development address fails
  // axe's contrast check (reported by the domains work, not this file's subject).
  await domains.close()
  return { host: custom, slug, title, owner: school.owner }
}

/** A stranger (a browser context of their own) fills the checkout on the school's domain and chooses `provider`; does not submit. */
export async function startPurchase(context: BrowserContext, shop: Shop, provider: Provider) {
  const buyer = await context.newPage()
  const email = `${unique(provider)}@example.com`
  await visit(buyer, url(shop.host, `/${shop.slug}/checkout`))
  await fillCheckout(buyer, { name: 'Kupujący Obcy', email, password: 'buyer-pass-123' }, provider)
  return { buyer, email }
}

/** The provider's own page, played by the peer. */
export const onPeer = (provider: Provider) => (u: URL) => u.hostname === 'pay.localhost' && u.pathname.startsWith(`/${provider}/hosted/`)

/** The checkout submitted: on the provider's page the buyer sees the course's price and pays with `button`. */
export async function payOnPeer(buyer: Page, provider: Provider, button: string) {
  await buyer.locator('[data-checkout-submit]').click()
  await buyer.waitForURL(onPeer(provider))
  await expectText(buyer.locator('[data-total]'), '49.00 PLN')
  await buyer.getByRole('button', { name: button }).click()
}

/** Back on the school's domain: the pending page says the payment went through, and the course is in /panel. */
export async function expectAccess(buyer: Page, shop: Shop) {
  await paymentSucceeded(buyer, shop.host)
  await visit(buyer, url(shop.host, '/panel'))
  const course = buyer.locator(`[data-panel-course="${shop.slug}"]`)
  await expectText(course, shop.title)
  assert.equal(await course.getAttribute('data-course-status'), 'active')
}

/**
 * The owner, signed in on the school's domain, finds the buyer's sale in the transactions, refunds
 * it from the sale's page (through the provider's API: the money sits in the school's own account)
 * and sees it refunded; the buyer's access to the course is gone.
 */
export async function refundAndRevoke(owner: Page, buyer: Page, shop: Shop, email: string) {
  await logIn(owner, shop.host, shop.owner.email, shop.owner.password)
  await owner.waitForURL((u) => u.pathname !== '/login')
  await visit(owner, url(shop.host, '/home/transactions'))
  const filters = owner.locator('[data-transaction-filters]')
  await filters.getByLabel('Buyer email').fill(email)
  await filters.getByRole('button', { name: 'Filter' }).click()
  await owner.waitForURL((u) => u.searchParams.get('email') === email)
  // The router moves the URL first and renders the filtered list in a transition afterwards: until
  // then the page still shows every sale. Wait for the list itself, every row this buyer's.
  await owner.waitForFunction(
    (buyer) => {
      const rows = [...document.querySelectorAll('[data-transaction]')]
      return rows.length > 0 && rows.every((r) => r.textContent?.includes(buyer))
    },
    email,
  )
  const row = owner.locator('[data-transaction]')
  await expectText(row, email)
  assert.equal(await row.count(), 1, 'one sale to this buyer')
  assert.equal(await row.locator('[data-status]').getAttribute('data-status'), 'completed')
  await row.getByRole('link', { name: /^Details/ }).click()
  await owner.waitForURL((u) => u.hostname === shop.host && /^\/home\/transactions\/[a-z2-7]+$/.test(u.pathname))
  await expectText(owner.locator('[data-collector="school"]'), 'You (paid into your own payment account)')

  const refund = owner.locator('[data-refund-panel]')
  await expectText(refund, 'The money goes back from your own account at the provider')
  await refund.getByLabel('I understand that the buyer loses access').check()
  await refund.getByRole('button', { name: /^Refund .*49\.00/ }).click()
  await owner.waitForURL((u) => u.searchParams.get('refund') !== null)
  assert.equal(new URL(owner.url()).searchParams.get('refund'), 'done', 'the provider took the refund')
  await expectText(owner.locator('[data-refund-outcome="done"]'), 'The sale was refunded and the buyer’s access was removed.')
  await expectText(owner.locator('[data-transaction-summary] [data-status="refunded"]'), 'Refunded')
  // The provider's refund is recorded among the sale's events (its key: refund:<the provider's refund id>).
  await expectText(owner.locator('[data-transaction-events] td'), /^refund:\S+$/)
  assert.equal(await owner.locator('[data-refund-panel] form').count(), 0, 'no second refund offered')

  // The product keeps a refunded course on the buyer's panel, marked "Access denied", with no way in.
  await visit(buyer, url(shop.host, '/panel'))
  const course = buyer.locator(`[data-panel-course="${shop.slug}"]`)
  await expectText(course.locator('[data-course-access]'), 'Access denied')
  assert.equal(await course.getAttribute('data-course-status'), 'revoked')
  assert.equal(await course.locator('[data-course-watch]').count(), 0, 'no link into the course')
}
