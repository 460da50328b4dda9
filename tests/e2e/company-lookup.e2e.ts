// "Fill from the register" in checkout (issue 25, GUS BIR 1.1 and VIES through their dev peers), in
// Chromium on the demo schools' checkouts. Every test registers a company of its own in the peer
// (an invented, checksum-valid NIP or EU VAT number: lookups are cached per number), and each
// context is a visitor with an address of its own (the lookups are limited per IP).
// - a valid NIP fills the company's name and address, which stay editable; the order goes on and
//   the school sees the company as the buyer left it;
// - Polish UI: a NIP with a wrong check digit is refused in the browser before any lookup; the
//   corrected NIP fills the fields and the order goes on; so does a NIP typed as its ten digits;
// - a lookup that fails leaves the fields editable and the order goes on: GUS down (the peer's
//   outage switched on for this test's NIP only, as other files share the peer) and this visitor
//   over the lookup limit;
// - an EU VAT number is checked in VIES and fills the company.
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { acceptTerms, fillBuyer, peerRequest } from './provider-support.ts'
import { browserTest, choosePayment, demoSchool, demoUser, expectText, logIn, subdomain, unique, url, visit } from './support.ts'

const code = demoSchool('code-academy')
const CODE = subdomain(code.slug)
const kasi = demoSchool('akademia-kasi')
const KASI = subdomain(kasi.slug)
const LOOKUP = '/checkout/company-lookup'

/** POST JSON to the dev peers' control API; its status. */
const peerPost = async (path: string, body: unknown) => (await peerRequest(path, body)).status

const WEIGHTS = [6, 5, 7, 2, 3, 4, 5, 6, 7]
/** A random NIP with its check digit (Σ dᵢ·wᵢ mod 11; nine digits whose sum gives 10 have no NIP). */
function randomNip(): string {
  for (;;) {
    const nine = Array.from({ length: 9 }, (_, i) => (i === 0 ? 1 + Math.floor(Math.random() * 9) : Math.floor(Math.random() * 10))).join('')
    const check = WEIGHTS.reduce((sum, w, i) => sum + w * Number(nine[i]), 0) % 11
    if (check !== 10) return `${nine}${check}`
  }
}
/** The same NIP with another check digit: no NIP at all. */
const wrongCheckDigit = (nip: string) => `${nip.slice(0, 9)}${(Number(nip[9]) + 1) % 10}`

type Company = { nip: string; name: string; place: string; postalCode: string; street: string; building: string; unit: string }

/** An invented company in the GUS peer's register. */
async function registerAtGus(): Promise<Company> {
  const company = { nip: randomNip(), name: `${unique('SZKOLENIA').toUpperCase()} SPÓŁKA AKCYJNA`, place: 'Gdańsk', postalCode: '80-831', street: 'ul. Długa', building: '12', unit: '4' }
  assert.equal(await peerPost('/_peer/gus/companies', { ...company, voivodeship: 'POMORSKIE', county: 'Gdańsk', commune: 'Gdańsk', postOffice: 'Gdańsk' }), 201)
  return company
}

/** A new visitor's checkout with the account fields filled and "Invoice for a company" chosen. */
async function companyCheckout(page: Page, host: string, product: string, email: string) {
  await visit(page, url(host, `/${product}/checkout`))
  await fillBuyer(page, { name: 'Celina Firmowa', email, password: 'firma-pass-123' })
  await page.locator('form [name="invoice"][value="company"]').check()
  await page.locator('[data-company-lookup]').waitFor()
}

const field = (page: Page, name: string) => page.locator(`form [name="${name}"]`)
const status = (page: Page) => page.locator('[data-company-lookup] [role="status"]')

/** The buyer types `vat` into the NIP field and asks the register (the button's label in the school's language). */
async function lookUp(page: Page, vat: string, language: 'en' | 'pl') {
  await field(page, 'vatNumber').fill(vat)
  await page.getByRole('button', { name: language === 'pl' ? 'Uzupełnij z rejestru' : 'Fill from the register' }).click()
}

/** The values of the company and address fields, by name. */
async function companyFields(page: Page) {
  const names = ['companyName', 'address', 'postalCode', 'city', 'country'] as const
  return Object.fromEntries(await Promise.all(names.map(async (n) => [n, await field(page, n).inputValue()] as const)))
}

/** The buyer types the company's name and address by hand (as the register has it). */
async function typeCompany(page: Page, company: Company) {
  await field(page, 'companyName').fill(company.name)
  await field(page, 'address').fill('ul. Długa 12/4')
  await field(page, 'postalCode').fill('80-831')
  await field(page, 'city').fill('Gdańsk')
}

/** Pay with the built-in test provider and wait for the pending page's success. */
async function placeOrder(page: Page, language: 'en' | 'pl') {
  await acceptTerms(page)
  await choosePayment(page, 'test')
  await page.locator('[data-checkout-submit]').click()
  // The test payment page, or the checkout again with its field errors (then say which).
  const errors = page.locator('[data-field-error]')
  await page.locator('[data-test-payment]').or(errors.first()).waitFor()
  if (!(await page.locator('[data-test-payment]').count())) assert.fail(`the order was refused: ${JSON.stringify(await errors.allInnerTexts())}`)
  await page.getByRole('button', { name: language === 'pl' ? 'Zapłać' : 'Pay', exact: true }).click()
  await expectText(page.locator('[data-pending-result="success"]'), language === 'pl' ? 'Płatność zakończona sukcesem' : 'Payment successful', 30_000)
}

/** Requests the page makes to the lookup route (to prove a refusal made none). */
function lookupRequests(page: Page) {
  const seen: string[] = []
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === LOOKUP) seen.push(r.url())
  })
  return seen
}

browserTest(
  'a valid NIP fills the company’s name and address from GUS; the buyer edits them and the school gets the order with the edited company',
  async ({ page, newContext }) => {
    const company = await registerAtGus()
    const email = `${unique('firma')}@example.com`
    await companyCheckout(page, CODE, 'javascript-foundations', email)
    await lookUp(page, `PL${company.nip}`, 'en')
    await expectText(status(page), `Filled in from the register: ${company.name}. Check the details; you can still change them.`)
    assert.deepEqual(await companyFields(page), { companyName: company.name, address: 'ul. Długa 12/4', postalCode: '80-831', city: 'Gdańsk', country: 'PL' })

    // The filled fields are the buyer's to change.
    const edited = `${company.name} ODDZIAŁ PÓŁNOC`
    await field(page, 'companyName').fill(edited)
    await field(page, 'address').fill('ul. Długa 12/5')
    await placeOrder(page, 'en')

    // The school's transaction keeps the company as the buyer left it.
    const owner = await (await newContext()).newPage()
    const staff = demoUser(code, 'owner')
    await logIn(owner, CODE, staff.email, staff.password)
    await owner.waitForURL((u) => u.pathname !== '/login')
    await visit(owner, url(CODE, `/home/transactions?email=${encodeURIComponent(email)}`))
    const rows = owner.locator('[data-transactions] tbody tr')
    assert.equal(await rows.count(), 1, 'one transaction of this buyer')
    await rows
      .first()
      .getByRole('link', { name: /^Details/ })
      .click()
    const invoice = owner.locator('[data-transaction-invoice]')
    await expectText(invoice, edited)
    await expectText(invoice, `PL${company.nip}`)
    await expectText(invoice, 'ul. Długa 12/5')
  },
  { ownClientIp: true },
)

browserTest(
  'Polish: a NIP with a wrong check digit is refused before any lookup; the corrected NIP fills the company and the order goes on',
  async ({ page }) => {
    const company = await registerAtGus()
    const asked = lookupRequests(page)
    await companyCheckout(page, KASI, 'budzet-domowy-od-zera', `${unique('nip')}@example.com`)

    // Said as soon as the buyer leaves the field, and again on the button: no request either time.
    await field(page, 'vatNumber').fill(`PL${wrongCheckDigit(company.nip)}`)
    await field(page, 'vatNumber').press('Tab')
    await expectText(status(page), 'Ten NIP jest nieprawidłowy: sprawdź cyfry.')
    await page.getByRole('button', { name: 'Uzupełnij z rejestru' }).click()
    await expectText(status(page), 'Ten NIP jest nieprawidłowy: sprawdź cyfry.')
    assert.equal(await page.locator('[data-company-lookup-status="error"]').count(), 1)
    assert.deepEqual(asked, [], 'no lookup for a NIP with a wrong check digit')
    assert.equal(await field(page, 'companyName').inputValue(), '')

    await lookUp(page, `PL${company.nip}`, 'pl')
    await expectText(status(page), `Uzupełniono z rejestru: ${company.name}. Sprawdź dane; nadal możesz je zmienić.`)
    assert.equal(asked.length, 1, 'one lookup')
    assert.equal(new URL(asked[0]!).searchParams.get('nip'), company.nip)
    assert.deepEqual(await companyFields(page), { companyName: company.name, address: 'ul. Długa 12/4', postalCode: '80-831', city: 'Gdańsk', country: 'PL' })
    await placeOrder(page, 'pl')
  },
  { ownClientIp: true },
)

browserTest(
  'Polish: the NIP typed as its ten digits (the field is labelled "NIP") is filled from GUS and the order is accepted',
  async ({ page }) => {
    const company = await registerAtGus()
    await companyCheckout(page, KASI, 'budzet-domowy-od-zera', `${unique('nip-cyfry')}@example.com`)
    await lookUp(page, company.nip, 'pl')
    await expectText(status(page), `Uzupełniono z rejestru: ${company.name}. Sprawdź dane; nadal możesz je zmienić.`)
    // The order takes it in international format (seed 001 §5): the field now says so.
    assert.equal(await field(page, 'vatNumber').inputValue(), `PL${company.nip}`)
    await placeOrder(page, 'pl')
  },
  { ownClientIp: true },
)

browserTest(
  'GUS not answering: the fields stay empty and editable, and the order goes on',
  async ({ page }) => {
    const company = await registerAtGus()
    // The register is down for this NIP (503 from the GUS peer), and only for it.
    assert.equal(await peerPost('/_peer/gus/fault', { nip: company.nip, down: true }), 200)
    await companyCheckout(page, KASI, 'budzet-domowy-od-zera', `${unique('gus-down')}@example.com`)
    await lookUp(page, company.nip, 'pl')
    await expectText(status(page), 'Rejestr teraz nie odpowiada. Wpisz dane samodzielnie: zamówienie od tego nie zależy.')
    assert.equal(await field(page, 'companyName').inputValue(), '')
    assert.equal(await field(page, 'companyName').isEditable(), true)
    await typeCompany(page, company)
    await placeOrder(page, 'pl')
  },
  // The lookup route's own answer while the register is down: 503, shown as "not answering".
  { ownClientIp: true, allowStatuses: [503] },
)

browserTest(
  'a lookup that fails leaves the fields editable and the order goes on',
  async ({ page }) => {
    await companyCheckout(page, KASI, 'budzet-domowy-od-zera', `${unique('bez-rejestru')}@example.com`)
    // This visitor uses up its lookups (20 register calls per IP in 10 minutes) on numbers GUS does not know.
    const statuses = await page.evaluate(
      async ({ path, nips }) => {
        const answers: number[] = []
        // One after another: each takes one turn of the limit.
        for (const nip of nips) answers.push((await fetch(`${path}?nip=${nip}`, { headers: { Accept: 'application/json' } })).status)
        return answers
      },
      { path: LOOKUP, nips: Array.from({ length: 20 }, () => randomNip()) },
    )
    assert.deepEqual(statuses, Array(20).fill(200), 'twenty lookups answered (not found)')

    const company = await registerAtGus()
    await lookUp(page, `PL${company.nip}`, 'pl')
    await expectText(status(page), 'Rejestr teraz nie odpowiada. Wpisz dane samodzielnie: zamówienie od tego nie zależy.')
    // Nothing was filled; the buyer types the company and the order goes on.
    assert.equal(await field(page, 'companyName').inputValue(), '')
    await typeCompany(page, company)
    await placeOrder(page, 'pl')
  },
  { ownClientIp: true },
)

browserTest(
  'an EU VAT number is checked in VIES and fills the company',
  async ({ page }) => {
    const vat = String(100_000_000 + Math.floor(Math.random() * 899_999_999))
    const name = `${unique('Lernwerkstatt')} GmbH`
    assert.equal(await peerPost('/_peer/vies/companies', { countryCode: 'DE', vatNumber: vat, name, address: 'Friedrichstraße 12\n10117 Berlin' }), 201)
    await companyCheckout(page, CODE, 'javascript-foundations', `${unique('vies')}@example.com`)
    await lookUp(page, `DE${vat}`, 'en')
    await expectText(status(page), `Filled in from the register: ${name}. Check the details; you can still change them.`)
    assert.deepEqual(await companyFields(page), { companyName: name, address: 'Friedrichstraße 12', postalCode: '10117', city: 'Berlin', country: 'DE' })
  },
  { ownClientIp: true },
)
