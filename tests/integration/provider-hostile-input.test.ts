// Issue 25's new surfaces given empty, over-long, malformed, wrong-type and hostile input (script,
// NUL, right-to-left override, `a[]=` arrays, repeated fields), in a Polish and an English school:
// the providers' credentials forms, the hosted card pages, the card-change routes, the company
// lookup and the checkout's BLIK code. Each answer is a 4xx (or, where the route's answer to a
// problem is the panel, a redirect with a notice) in the school's language, never a 5xx, secrets
// are never echoed back and no row is written.
import { env } from 'cloudflare:workers'
import { beforeAll, describe, expect, it } from 'vitest'
import { memberships, type PaymentProvider } from '#app/db/schema.server.ts'
import { createIntegration } from '#app/models/payment-integration.server.ts'
import { createProduct } from '#app/models/product.server.ts'
import { setPrices } from '#app/models/product-price.server.ts'
import { createTransaction, setProviderRef } from '#app/models/transaction.server.ts'
import { providerModule } from '#app/payments/providers/index.server.ts'
import { providerContext } from '#app/payments/providers/provider-context.server.ts'
import type { Env } from '#app/utils/env.server.ts'
import { newId } from '#app/utils/ids.server.ts'
import { appFetch, createTestSchool, createTestStudent, db, login, type TestSchool, d1ForTable } from '#tests/factories.ts'

const KEY = (env as unknown as { INTEGRATIONS_KEY: string }).INTEGRATIONS_KEY
const LONG = 'a'.repeat(5000)
const SCRIPT = '<script>alert(1)</script>'
const NUL = '\u0000'
const RTL = '\u202e'
/** Typed into the secret fields: it must never come back in a page. Valid for every provider's secret pattern. */
const SECRET = 'probeSecret_5f2c9a7e41d3b8'
const JSON_HEADERS = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json' }
const DAY = 86_400_000

// The peers' development accounts (workers/dev-peers/src/{paylane,tpay,p24}.ts).
const PAYLANE_DEV = {
  apiLogin: 'coursefront_dev',
  apiPassword: 'coursefront_dev_paylane_password_0000',
  publicApiKey: 'c0ffee00c0ffee00c0ffee00c0ffee00c0ffee00',
  notificationToken: 'coursefront_dev_paylane_notify_token_00',
  sandbox: 'true',
}
const TPAY_DEV = { clientId: '1010-c0a5e7d1f2b34a59', clientSecret: 'coursefront_dev_tpay_secret_0000000000000000000000', merchantId: '1010', sandbox: 'yes' }
const P24_DEV = { merchantId: '100001', posId: '100001', apiKey: 'coursefront_dev_p24_reports_key_01', crc: 'cfdevp24crc00001', sandbox: 'yes' }

const count = async (table: string, tenantId: string) => (await d1ForTable(table).prepare(`SELECT count(*) AS n FROM ${table} WHERE tenant_id = ?`).bind(tenantId).first<{ n: number }>())!.n
const countAll = async (table: string) => (await d1ForTable(table).prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n
/** The lookup limit is platform-wide: its counters are in the control plane (ADR 033). */
const countPlatformCounters = async () => (await (env as unknown as { DB: D1Database }).DB.prepare("SELECT count(*) AS n FROM login_attempts WHERE tenant_id = 'platform'").first<{ n: number }>())!.n
/** Every row a payment probe could write or change, for one school. */
const paymentState = async (tenantId: string) => {
  const rows = await env.DB_SHARD_0.batch([
    env.DB_SHARD_0.prepare('SELECT * FROM payment_integrations WHERE tenant_id = ? ORDER BY id').bind(tenantId),
    env.DB_SHARD_0.prepare('SELECT * FROM transactions WHERE tenant_id = ? ORDER BY id').bind(tenantId),
    env.DB_SHARD_0.prepare('SELECT * FROM memberships WHERE tenant_id = ? ORDER BY id').bind(tenantId),
    env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM product_access WHERE tenant_id = ?').bind(tenantId),
    env.DB_SHARD_0.prepare('SELECT count(*) AS n FROM app_events WHERE tenant_id = ?').bind(tenantId),
  ])
  return rows.map((r) => r.results)
}

/** A form body with repeated keys or `a[]` names, as a crafted request sends it. */
const rawForm = (pairs: Array<[string, string]>) => ({ body: new URLSearchParams(pairs).toString(), headers: { 'Content-Type': 'application/x-www-form-urlencoded' } })

const expect4xx = (res: Response, label: string) => {
  expect(res.status, label).toBeGreaterThanOrEqual(400)
  expect(res.status, label).toBeLessThan(500)
}

// ---- the credentials forms ---------------------------------------------------------------------

type Lang = 'en' | 'pl'
type FormCase = { name: string; fields: Record<string, string>; currency?: string; expect: Record<Lang, string[]> }

const CURRENCY_ERROR = { en: 'This provider does not take payments in this currency.', pl: 'Ten operator nie przyjmuje płatności w tej walucie.' }
const CURRENCY_ERRORS = { en: [CURRENCY_ERROR.en], pl: [CURRENCY_ERROR.pl] }

/** Per provider: cases that each fail on at least one field, so the provider is never asked. */
const FORM_CASES: Record<'p24' | 'tpay' | 'paypal' | 'braintree' | 'paylane', FormCase[]> = {
  p24: [
    {
      name: 'empty',
      fields: { merchantId: '', posId: '', apiKey: '', crc: '', sandbox: '' },
      expect: {
        en: ['Enter the merchant ID: digits only.', 'Enter the API key (“Klucz do raportów”).', 'Enter the CRC key.', 'Choose whether these are sandbox credentials.'],
        pl: ['Podaj ID sprzedawcy: same cyfry.', 'Podaj klucz API („Klucz do raportów”).', 'Podaj klucz CRC.', 'Wybierz, czy to dane sandboxa.'],
      },
    },
    {
      name: 'over-long',
      fields: { merchantId: LONG, posId: LONG, apiKey: LONG, crc: LONG, sandbox: 'yes' },
      expect: {
        en: ['Enter the merchant ID: digits only.', 'Enter the POS ID: digits only, or leave it empty.', 'Enter the CRC key.'],
        pl: ['Podaj ID sprzedawcy: same cyfry.', 'Podaj ID sklepu: same cyfry albo zostaw puste.', 'Podaj klucz CRC.'],
      },
    },
    {
      name: 'hostile ids, secrets typed',
      fields: { merchantId: SCRIPT, posId: `12${NUL}`, apiKey: `${SECRET}${RTL}`, crc: SECRET, sandbox: 'yes' },
      expect: {
        en: ['Enter the merchant ID: digits only.', 'Enter the POS ID: digits only, or leave it empty.'],
        pl: ['Podaj ID sprzedawcy: same cyfry.', 'Podaj ID sklepu: same cyfry albo zostaw puste.'],
      },
    },
    {
      name: 'wrong types',
      fields: { merchantId: '-1', posId: '1e3', apiKey: SECRET, crc: SECRET, sandbox: 'maybe' },
      expect: { en: ['Enter the merchant ID: digits only.', 'Choose whether these are sandbox credentials.'], pl: ['Podaj ID sprzedawcy: same cyfry.', 'Wybierz, czy to dane sandboxa.'] },
    },
    { name: 'a currency P24 does not take', fields: P24_DEV, currency: 'USD', expect: CURRENCY_ERRORS },
  ],
  tpay: [
    {
      name: 'empty',
      fields: { clientId: '', clientSecret: '', merchantId: '', sandbox: '' },
      expect: {
        en: ['Enter the client id: letters, digits and dashes only', 'Paste the client secret without spaces', 'Choose whether this is a sandbox account'],
        pl: ['Wpisz client id: tylko litery, cyfry i myślniki', 'Wklej client secret bez spacji', 'Wybierz, czy to konto sandbox'],
      },
    },
    {
      name: 'over-long',
      fields: { clientId: LONG, clientSecret: LONG, merchantId: LONG, sandbox: 'no' },
      expect: {
        en: ['Enter the client id: letters, digits and dashes only', 'Paste the client secret without spaces', 'Enter the merchant id: digits only, or leave it empty'],
        pl: ['Wpisz client id: tylko litery, cyfry i myślniki', 'Wklej client secret bez spacji', 'Wpisz identyfikator sprzedawcy: tylko cyfry, albo zostaw puste'],
      },
    },
    {
      name: 'hostile id, secret typed',
      fields: { clientId: SCRIPT, clientSecret: SECRET, merchantId: `${RTL}1010`, sandbox: 'yes' },
      expect: {
        en: ['Enter the client id: letters, digits and dashes only', 'Enter the merchant id: digits only, or leave it empty'],
        pl: ['Wpisz client id: tylko litery, cyfry i myślniki', 'Wpisz identyfikator sprzedawcy: tylko cyfry, albo zostaw puste'],
      },
    },
    { name: 'a currency Tpay does not take', fields: TPAY_DEV, currency: 'EUR', expect: CURRENCY_ERRORS },
  ],
  paypal: [
    {
      name: 'empty',
      fields: { clientId: '', clientSecret: '', sandbox: '' },
      expect: { en: ['Paste the value from the PayPal dashboard: letters, digits, - and _ only.'], pl: ['Wklej wartość z panelu PayPal: tylko litery, cyfry, - i _.'] },
    },
    {
      name: 'over-long, wrong switch',
      fields: { clientId: LONG, clientSecret: LONG, sandbox: 'maybe' },
      expect: {
        en: ['Paste the value from the PayPal dashboard: letters, digits, - and _ only.', 'Choose live or sandbox.'],
        pl: ['Wklej wartość z panelu PayPal: tylko litery, cyfry, - i _.', 'Wybierz środowisko produkcyjne albo sandbox.'],
      },
    },
    {
      name: 'hostile id, secret typed',
      fields: { clientId: `${SCRIPT}${NUL}`, clientSecret: SECRET, sandbox: 'yes' },
      expect: { en: ['Paste the value from the PayPal dashboard: letters, digits, - and _ only.'], pl: ['Wklej wartość z panelu PayPal: tylko litery, cyfry, - i _.'] },
    },
  ],
  braintree: [
    {
      name: 'empty',
      fields: { merchantId: '', publicKey: '', privateKey: '', merchantAccountId: '', sandbox: '' },
      expect: {
        en: ['Enter the merchant ID: letters, digits and underscores only', 'Enter the public key: letters, digits and underscores only', 'Paste the private key without spaces'],
        pl: ['Wpisz Merchant ID: tylko litery, cyfry i podkreślenia', 'Wpisz klucz publiczny: tylko litery, cyfry i podkreślenia', 'Wklej klucz prywatny bez spacji'],
      },
    },
    {
      name: 'over-long',
      fields: { merchantId: LONG, publicKey: LONG, privateKey: LONG, merchantAccountId: LONG, sandbox: 'true' },
      expect: {
        en: ['Enter the merchant ID: letters, digits and underscores only', 'Paste the private key without spaces', 'Enter the merchant account ID as shown in the Control Panel, or leave it empty'],
        pl: ['Wpisz Merchant ID: tylko litery, cyfry i podkreślenia', 'Wklej klucz prywatny bez spacji', 'Wpisz ID konta sprzedawcy tak, jak w panelu, albo zostaw puste'],
      },
    },
    {
      name: 'hostile account, secret typed',
      fields: { merchantId: 'coursefrontdev', publicKey: `pub${RTL}`, privateKey: SECRET, merchantAccountId: SCRIPT, sandbox: 'true' },
      expect: {
        en: ['Enter the public key: letters, digits and underscores only', 'Enter the merchant account ID as shown in the Control Panel, or leave it empty'],
        pl: ['Wpisz klucz publiczny: tylko litery, cyfry i podkreślenia', 'Wpisz ID konta sprzedawcy tak, jak w panelu, albo zostaw puste'],
      },
    },
  ],
  paylane: [
    {
      name: 'empty',
      fields: { apiLogin: '', apiPassword: '', publicApiKey: '', notificationToken: '', sandbox: '' },
      expect: {
        en: [
          'Enter the API login (no spaces or colons).',
          'Enter the API password.',
          'The public API key has 40 characters: digits and the letters a–f.',
          'Enter the notification token: 8 to 50 characters, no spaces.',
        ],
        pl: ['Wpisz login API (bez spacji i dwukropków).', 'Wpisz hasło API.', 'Publiczny klucz API ma 40 znaków: cyfry i litery a–f.', 'Wpisz token powiadomień: od 8 do 50 znaków, bez spacji.'],
      },
    },
    {
      name: 'over-long',
      fields: { apiLogin: LONG, apiPassword: LONG, publicApiKey: LONG, notificationToken: LONG, sandbox: 'yes' },
      expect: {
        en: [
          'Enter the API login (no spaces or colons).',
          'Enter the API password.',
          'The public API key has 40 characters: digits and the letters a–f.',
          'Enter the notification token: 8 to 50 characters, no spaces.',
        ],
        pl: ['Wpisz login API (bez spacji i dwukropków).', 'Wpisz hasło API.', 'Publiczny klucz API ma 40 znaków: cyfry i litery a–f.', 'Wpisz token powiadomień: od 8 do 50 znaków, bez spacji.'],
      },
    },
    {
      name: 'hostile login and key, secrets typed',
      fields: { apiLogin: `a:${SCRIPT}`, apiPassword: SECRET, publicApiKey: 'z'.repeat(40), notificationToken: `${SECRET}-token`, sandbox: 'yes' },
      expect: {
        en: ['Enter the API login (no spaces or colons).', 'The public API key has 40 characters: digits and the letters a–f.'],
        pl: ['Wpisz login API (bez spacji i dwukropków).', 'Publiczny klucz API ma 40 znaków: cyfry i litery a–f.'],
      },
    },
  ],
}

let plForms: TestSchool
let enForms: TestSchool
let plOwner: string
let enOwner: string

describe('the providers’ credentials forms under hostile input', () => {
  beforeAll(async () => {
    plForms = await createTestSchool({ language: 'pl' })
    enForms = await createTestSchool({ language: 'en' })
    plOwner = await login(plForms.host, plForms.owner.email, plForms.owner.password)
    enOwner = await login(enForms.host, enForms.owner.email, enForms.owner.password)
  })

  for (const lang of ['pl', 'en'] as const) {
    for (const [provider, cases] of Object.entries(FORM_CASES)) {
      for (const c of cases) {
        it(`${lang} ${provider}: ${c.name} → 422 with field errors, secret not echoed, no integration`, async () => {
          const school = lang === 'pl' ? plForms : enForms
          const before = await count('payment_integrations', school.tenantId)
          const res = await appFetch(school.host, '/home/settings/payments', { cookie: lang === 'pl' ? plOwner : enOwner, form: { provider, currency: c.currency ?? 'PLN', ...c.fields } })
          expect(res.status).toBe(422)
          const html = await res.text()
          for (const text of c.expect[lang]) expect(html).toContain(text)
          expect(html).not.toContain(SCRIPT)
          expect(html).not.toContain(SECRET)
          expect(await count('payment_integrations', school.tenantId)).toBe(before)
        })
      }
    }
  }

  it('crafted forms (unknown or array provider, repeated fields, not a form) → 4xx, nothing written', async () => {
    const before = await count('payment_integrations', plForms.tenantId)
    const probes: Array<{ label: string; init: { body: string; headers: Record<string, string> }; expect?: string }> = [
      {
        label: 'provider is a script',
        init: rawForm([
          ['provider', SCRIPT],
          ['currency', 'PLN'],
          ['apiKey', SECRET],
        ]),
      },
      { label: 'provider[]', init: rawForm([['provider[]', 'p24'], ['currency', 'PLN'], ...Object.entries(P24_DEV)]) },
      {
        label: 'the prototype’s names',
        init: rawForm([
          ['provider', '__proto__'],
          ['currency', 'PLN'],
        ]),
      },
      { label: 'provider with NUL', init: rawForm([['provider', `p24${NUL}`], ['currency', 'PLN'], ...Object.entries(P24_DEV)]) },
      // The first value counts: a malformed merchant id first, a valid one after it.
      {
        label: 'repeated fields',
        init: rawForm([
          ['provider', 'p24'],
          ['provider', 'tpay'],
          ['currency', 'PLN'],
          ['merchantId', 'abc'],
          ['merchantId', '100001'],
          ['apiKey', SECRET],
          ['crc', SECRET],
          ['sandbox', 'yes'],
        ]),
        expect: 'Podaj ID sprzedawcy: same cyfry.',
      },
      { label: 'currency[]', init: rawForm([['provider', 'tpay'], ['currency[]', 'PLN'], ...Object.entries(TPAY_DEV)]), expect: CURRENCY_ERROR.pl },
      { label: 'JSON body', init: { body: JSON.stringify({ provider: 'p24', currency: 'PLN', ...P24_DEV }), headers: { 'Content-Type': 'application/json' } } },
      { label: 'broken multipart', init: { body: '--zzz\r\nbroken', headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' } } },
    ]
    for (const probe of probes) {
      const res = await appFetch(plForms.host, '/home/settings/payments', { method: 'POST', cookie: plOwner, ...probe.init })
      expect4xx(res, probe.label)
      const html = await res.text()
      if (probe.expect) expect(html, probe.label).toContain(probe.expect)
      expect(html, probe.label).not.toContain(SECRET)
      expect(html, probe.label).not.toContain(SCRIPT)
    }
    expect(await count('payment_integrations', plForms.tenantId)).toBe(before)
  })

  it('a student posting a provider form is refused and nothing is written', async () => {
    const student = await createTestStudent(plForms.tenantId)
    const cookie = await login(plForms.host, student.email, student.password)
    const before = await count('payment_integrations', plForms.tenantId)
    const res = await appFetch(plForms.host, '/home/settings/payments', { cookie, form: { provider: 'p24', currency: 'PLN', ...P24_DEV } })
    expect(res.status).toBeGreaterThanOrEqual(300)
    expect(res.status).toBeLessThan(500)
    expect(await count('payment_integrations', plForms.tenantId)).toBe(before)
  })
})

// ---- the hosted card pages, the card change and the checkout -----------------------------------

/** A school that sells in PLN through PayLane (hosted fields), Tpay (the provider's card page) and Przelewy24 (BLIK). */
let shop: TestSchool
let other: TestSchool
let buyer: { id: string; cookie: string }
let stranger: { id: string; cookie: string }
let otherStudent: { id: string; cookie: string }
let paylaneId: string
let tpayId: string
let p24Id: string
let otherPaylaneId: string
let txHash: string
let otherTxHash: string
let courseSlug: string
let mine: string
let mineTpay: string
let mineTest: string
let strangers: string
let othersSchool: string

async function student(s: TestSchool) {
  const made = await createTestStudent(s.tenantId)
  return { id: made.id, cookie: await login(s.host, made.email, made.password) }
}

/** The school connects a provider as the settings page does (checked with its peer, then sealed). */
async function connect(s: TestSchool, provider: PaymentProvider, fields: Record<string, string>) {
  const id = `int${newId().slice(0, 12)}${provider}`
  const connected = await providerModule(provider)!.connect(providerContext(env as unknown as Env, provider), {
    fields,
    currency: 'PLN',
    integrationId: id,
    notifyUrl: `http://${s.host}/payments/${provider}/${id}/notify`,
    origin: `http://${s.host}`,
  })
  if (!connected.ok) throw new Error(`${provider} connect: ${JSON.stringify(connected.errors)}`)
  return (await createIntegration(db(), KEY, s.tenantId, { id, provider, currency: 'PLN', credentials: connected.credentials, publicRef: connected.publicRef })).id
}

/** A course order waiting on PayLane's card page, as startPayment leaves it (our id is the reference until the sale). */
async function pendingCardOrder(s: TestSchool, userId: string, integrationId: string) {
  const product = await createProduct(db(), s.tenantId, { kind: 'course', title: 'Kurs kart', published: true })
  const tx = await createTransaction(db(), s.tenantId, {
    userId,
    productId: product.id,
    productKind: 'course',
    productTitle: product.title,
    quantity: 1,
    currency: 'PLN',
    unitAmount: 12_300,
    totalAmount: 12_300,
    vatAmount: 0,
    feeAmount: 0,
    buyer: JSON.stringify({ name: 'Zofia', email: 'zofia@example.com' }),
    termsAcceptedAt: Date.now(),
    checkoutPath: `/${product.slug}/checkout`,
  })
  await setProviderRef(db(), s.tenantId, tx.id, { provider: 'paylane', integrationId, providerRef: tx.id })
  return tx.hash
}

/** A membership row as the billing side writes it after a completed purchase. */
async function membership(s: TestSchool, userId: string, provider: PaymentProvider, integrationId: string) {
  const product = await createProduct(db(), s.tenantId, { kind: 'membership', title: 'Klub', published: true, membershipPeriod: 1 })
  const now = Date.now()
  const tx = await createTransaction(db(), s.tenantId, {
    productId: product.id,
    productKind: 'membership',
    productTitle: 'Klub',
    currency: 'PLN',
    unitAmount: 2_900,
    totalAmount: 2_900,
    termsAcceptedAt: now,
    checkoutPath: '/klub/checkout',
    userId,
  })
  const id = newId()
  await db()
    .insert(memberships)
    .values({
      id,
      tenantId: s.tenantId,
      userId,
      productId: product.id,
      transactionId: tx.id,
      status: 'active',
      periodMonths: 1,
      amount: 2_900,
      currency: 'PLN',
      provider,
      integrationId,
      currentPeriodEnd: now + 30 * DAY,
      nextChargeAt: now + 30 * DAY,
      cardBrand: 'visa',
      cardLast4: '4242',
      cardExpMonth: 12,
      cardExpYear: 2030,
      cardToken: provider === 'test' ? 'tok_test_4242_ok_original' : 'auth:100',
      createdAt: now,
      updatedAt: now,
    })
  return id
}

beforeAll(async () => {
  shop = await createTestSchool({ language: 'pl' })
  other = await createTestSchool({ language: 'en' })
  // Before the first request: the school sells in PLN (P24, Tpay).
  await env.DB.prepare("UPDATE tenants SET currency = 'PLN' WHERE id IN (?, ?)").bind(shop.tenantId, other.tenantId).run()
  buyer = await student(shop)
  stranger = await student(shop)
  otherStudent = await student(other)
  paylaneId = (await createIntegration(db(), KEY, shop.tenantId, { provider: 'paylane', currency: 'PLN', credentials: PAYLANE_DEV, publicRef: PAYLANE_DEV.apiLogin })).id
  otherPaylaneId = (await createIntegration(db(), KEY, other.tenantId, { provider: 'paylane', currency: 'PLN', credentials: PAYLANE_DEV, publicRef: PAYLANE_DEV.apiLogin })).id
  tpayId = await connect(shop, 'tpay', TPAY_DEV)
  p24Id = await connect(shop, 'p24', P24_DEV)
  await createIntegration(db(), KEY, shop.tenantId, { provider: 'test', currency: 'PLN', credentials: {} })

  const course = await createProduct(db(), shop.tenantId, { kind: 'course', title: 'Kurs kart', published: true })
  await setPrices(db(), shop.tenantId, course.id, [{ name: '', amount: 12_300 }])
  courseSlug = course.slug
  txHash = await pendingCardOrder(shop, buyer.id, paylaneId)
  otherTxHash = await pendingCardOrder(other, otherStudent.id, otherPaylaneId)

  mine = await membership(shop, buyer.id, 'paylane', paylaneId)
  mineTpay = await membership(shop, buyer.id, 'tpay', tpayId)
  mineTest = await membership(shop, buyer.id, 'test', 'test')
  strangers = await membership(shop, stranger.id, 'paylane', paylaneId)
  othersSchool = await membership(other, otherStudent.id, 'paylane', otherPaylaneId)
})

describe('the hosted card page under hostile input', () => {
  const page = (provider: string, integrationId: string, hash: string) => `/payments/${provider}/${integrationId}/card/${hash}`

  it('the buyer’s own page answers (the probes below are refused for what they change, not for the page)', async () => {
    const res = await appFetch(shop.host, page('paylane', paylaneId, txHash), { cookie: buyer.cookie })
    expect(res.status).toBe(200)
  })

  it('bogus providers, another school’s integration, bad hashes, strangers → 404 on GET and POST, nothing written', async () => {
    const before = await paymentState(shop.tenantId)
    const paths = [
      page('bogus', paylaneId, txHash),
      page(encodeURIComponent(SCRIPT), paylaneId, txHash),
      page('stripe', paylaneId, txHash),
      page('payu', paylaneId, txHash),
      page('braintree', paylaneId, txHash),
      page('paylane', otherPaylaneId, txHash),
      page('paylane', encodeURIComponent(`${paylaneId}${NUL}`), txHash),
      page('paylane', encodeURIComponent(`${RTL}${paylaneId}`), txHash),
      page('paylane', paylaneId, 'not-a-hash'),
      page('paylane', paylaneId, LONG),
      page('paylane', paylaneId, encodeURIComponent(`${txHash}'--`)),
    ]
    for (const path of paths) {
      for (const init of [{ cookie: buyer.cookie }, { cookie: buyer.cookie, form: { token: 'tok' } }]) {
        const res = await appFetch(shop.host, path, init)
        expect(res.status, `${init.form ? 'POST' : 'GET'} ${path.slice(0, 120)}`).toBe(404)
      }
    }
    // The right page, asked by someone who is not its buyer (a visitor, another student, another school's student).
    for (const [who, cookie] of [
      ['visitor', undefined],
      ['another student', stranger.cookie],
    ] as const) {
      expect((await appFetch(shop.host, page('paylane', paylaneId, txHash), { cookie })).status, who).toBe(404)
      expect((await appFetch(shop.host, page('paylane', paylaneId, txHash), { cookie, form: { token: 'tok' } })).status, who).toBe(404)
    }
    expect((await appFetch(other.host, page('paylane', paylaneId, txHash), { cookie: otherStudent.cookie })).status).toBe(404)
    expect((await appFetch(other.host, page('paylane', otherPaylaneId, txHash), { cookie: otherStudent.cookie, form: { token: 'tok' } })).status).toBe(404)
    expect(await paymentState(shop.tenantId)).toEqual(before)
  })

  it('empty, over-long, array and hostile tokens → 422 in Polish, the transaction unchanged', async () => {
    const before = await paymentState(shop.tenantId)
    const path = page('paylane', paylaneId, txHash)
    const invalid: Array<[string, { body: string; headers: Record<string, string> }]> = [
      ['empty', rawForm([['token', '']])],
      ['blank', rawForm([['token', '   ']])],
      ['over-long', rawForm([['token', LONG]])],
      ['token[]', rawForm([['token[]', 'tok']])],
      ['missing', rawForm([])],
    ]
    for (const [label, init] of invalid) {
      const res = await appFetch(shop.host, path, { method: 'POST', cookie: buyer.cookie, ...init })
      expect(res.status, label).toBe(422)
      expect(await res.text(), label).toContain('Sprawdź dane karty.')
    }
    const english = await appFetch(other.host, page('paylane', otherPaylaneId, otherTxHash), { method: 'POST', cookie: otherStudent.cookie, ...rawForm([['token', '']]) })
    expect(english.status).toBe(422)
    expect(await english.text()).toContain('Please check your card details.')
    // A well-formed token PayLane never issued (PayLane: 411): refused, the page says so and nothing is paid.
    const unknown = await appFetch(shop.host, path, { cookie: buyer.cookie, form: { token: 'f'.repeat(64) } })
    expect(unknown.status).toBe(422)
    expect(await unknown.text()).not.toContain('Paylane nie odpowiada')
    // Malformed tokens PayLane answers with its 7xx (card data): a refusal, never "PayLane is down".
    for (const token of [SCRIPT, 'tok\u0000en', '\u202Etoken', "' OR 1=1 --", 'a'.repeat(4096)]) {
      const res = await appFetch(shop.host, path, { cookie: buyer.cookie, form: { token } })
      expect(res.status, JSON.stringify(token.slice(0, 20))).toBe(422)
      expect(await res.text()).not.toContain('Paylane nie odpowiada')
    }
    // A body that is not a form at all: the same refusal, never a 500.
    for (const [label, init] of [
      ['JSON', { method: 'POST', body: JSON.stringify({ token: 'tok' }), headers: { 'Content-Type': 'application/json' } }],
      ['broken multipart', { method: 'POST', body: '--x\r\nbroken', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } }],
      ['text', { method: 'POST', body: 'token=tok', headers: { 'Content-Type': 'text/plain' } }],
    ] as const) {
      const res = await appFetch(shop.host, path, { cookie: buyer.cookie, ...init })
      expect(res.status, label).toBe(422)
    }
    expect(await paymentState(shop.tenantId)).toEqual(before)
  })
})

describe('the card change under hostile input', () => {
  const memberships = async () => paymentState(shop.tenantId).then((s) => s[2])
  const othersRows = async () => paymentState(other.tenantId).then((s) => s[2])

  it('POST /my/membership/card intent=provider: bogus, another student’s, another school’s, hostile ids → 404, nothing changes', async () => {
    const before = [await memberships(), await othersRows()]
    const forms: Array<[string, { body: string; headers: Record<string, string> }]> = [
      [
        'unknown id',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', 'nope'],
        ]),
      ],
      [
        'another student’s',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', strangers],
        ]),
      ],
      [
        'another school’s',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', othersSchool],
        ]),
      ],
      [
        'script',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', SCRIPT],
        ]),
      ],
      [
        'NUL',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', `${mine}${NUL}`],
        ]),
      ],
      [
        'RTL',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', `${RTL}${mine}`],
        ]),
      ],
      [
        'over-long',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', LONG],
        ]),
      ],
      ['missing', rawForm([['intent', 'provider']])],
      [
        'membership_id[]',
        rawForm([
          ['intent', 'provider'],
          ['membership_id[]', mine],
        ]),
      ],
      // The first value counts: another student's id first.
      [
        'repeated',
        rawForm([
          ['intent', 'provider'],
          ['membership_id', strangers],
          ['membership_id', mine],
        ]),
      ],
    ]
    for (const [label, init] of forms) {
      for (const headers of [{}, JSON_HEADERS]) {
        const res = await appFetch(shop.host, '/my/membership/card', { method: 'POST', cookie: buyer.cookie, body: init.body, headers: { ...init.headers, ...headers } })
        expect(res.status, `${label} ${JSON.stringify(headers)}`).toBe(404)
      }
    }
    for (const json of [
      { intent: 'provider', membership_id: { $ne: null } },
      { intent: 'provider', membership_id: [strangers] },
      { intent: 'provider', membership_id: 12 },
    ]) {
      const res = await appFetch(shop.host, '/my/membership/card', {
        method: 'POST',
        cookie: buyer.cookie,
        body: JSON.stringify(json),
        headers: { 'Content-Type': 'application/json', ...JSON_HEADERS },
      })
      expect(res.status, JSON.stringify(json)).toBe(404)
    }
    // Another school's student asking here for their own membership's id.
    const foreign = await appFetch(shop.host, '/my/membership/card', { cookie: otherStudent.cookie, form: { intent: 'provider', membership_id: othersSchool } })
    expect(foreign.status).toBeGreaterThanOrEqual(300)
    expect(foreign.status).toBeLessThan(500)
    expect([await memberships(), await othersRows()]).toEqual(before)
  })

  it('a membership whose card the provider does not keep → a clear notice, nothing changes', async () => {
    const before = await memberships()
    const res = await appFetch(shop.host, '/my/membership/card', { cookie: buyer.cookie, form: { intent: 'provider', membership_id: mineTest } })
    expect(res.status).toBe(303)
    expect(res.headers.get('Location')).toBe(`/panel?membership_error=card_not_supported&membership=${mineTest}#membership-${mineTest}`)
    const script = await appFetch(shop.host, '/my/membership/card', { cookie: buyer.cookie, form: { intent: 'provider', membership_id: mineTest }, headers: JSON_HEADERS })
    expect(script.status).toBe(409)
    expect(((await script.json()) as { errors: { membership: string[] } }).errors.membership).toHaveLength(1)
    expect(await memberships()).toEqual(before)
  })

  it('GET /my/membership/card/fields with bogus, foreign, hostile or array ids → 404', async () => {
    expect((await appFetch(shop.host, `/my/membership/card/fields?membership=${mine}`, { cookie: buyer.cookie })).status).toBe(200)
    for (const query of [
      '',
      'membership=nope',
      `membership=${strangers}`,
      `membership=${othersSchool}`,
      `membership=${encodeURIComponent(SCRIPT)}`,
      `membership=${encodeURIComponent(mine + NUL)}`,
      `membership=${LONG}`,
      `membership[]=${mine}`,
      `membership=${encodeURIComponent(RTL + mine)}`,
    ]) {
      const res = await appFetch(shop.host, `/my/membership/card/fields?${query}`, { cookie: buyer.cookie })
      expect(res.status, query.slice(0, 80)).toBe(404)
    }
    // A visitor is sent to sign in.
    const visitor = await appFetch(shop.host, `/my/membership/card/fields?membership=${mine}`)
    expect(visitor.status).toBe(302)
    expect(visitor.headers.get('Location')).toMatch(/^\/login/)
  })

  it('POST /my/membership/card/fields with foreign ids or bad tokens → 404 / 422, the card unchanged', async () => {
    const before = [await memberships(), await othersRows()]
    const path = `/my/membership/card/fields?membership=${mine}`
    for (const [label, form] of [
      ['another student’s', { membership: strangers, token: 'tok' }],
      ['another school’s', { membership: othersSchool, token: 'tok' }],
      ['hostile id', { membership: SCRIPT, token: 'tok' }],
    ] as const) {
      expect((await appFetch(shop.host, '/my/membership/card/fields', { cookie: buyer.cookie, form })).status, label).toBe(404)
    }
    for (const [label, init] of [
      [
        'empty',
        rawForm([
          ['membership', mine],
          ['token', ''],
        ]),
      ],
      [
        'over-long',
        rawForm([
          ['membership', mine],
          ['token', LONG],
        ]),
      ],
      [
        'token[]',
        rawForm([
          ['membership', mine],
          ['token[]', 'tok'],
        ]),
      ],
    ] as const) {
      const res = await appFetch(shop.host, path, { method: 'POST', cookie: buyer.cookie, ...init })
      expect(res.status, label).toBe(422)
      expect(await res.text(), label).toContain('Sprawdź dane karty.')
    }
    // A well-formed token PayLane never issued, and malformed ones (PayLane's 7xx): refused, never "PayLane is down".
    for (const token of ['e'.repeat(64), SCRIPT, 'tok\u0000en', 'a'.repeat(4096)]) {
      const res = await appFetch(shop.host, path, { cookie: buyer.cookie, form: { membership: mine, token } })
      expect(res.status, JSON.stringify(token.slice(0, 20))).toBe(422)
    }
    // Not a form at all: refused, never a 500.
    for (const [label, init] of [
      ['JSON', { method: 'POST', body: JSON.stringify({ membership: mine, token: 'tok' }), headers: { 'Content-Type': 'application/json' } }],
      ['broken multipart', { method: 'POST', body: '--x\r\nbroken', headers: { 'Content-Type': 'multipart/form-data; boundary=x' } }],
    ] as const) {
      const res = await appFetch(shop.host, path, { cookie: buyer.cookie, ...init })
      expect(res.status, label).toBe(422)
    }
    expect([await memberships(), await othersRows()]).toEqual(before)
  })

  it('GET /my/membership/card/return with forged values → 404 for others’, a notice for one’s own; the card unchanged', async () => {
    for (const query of ['', 'membership=nope', `membership=${strangers}`, `membership=${othersSchool}`, `membership=${encodeURIComponent(SCRIPT)}`, `membership=${LONG}`, `membership[]=${mine}`]) {
      expect((await appFetch(shop.host, `/my/membership/card/return?${query}`, { cookie: buyer.cookie })).status, query.slice(0, 80)).toBe(404)
    }
    const visitor = await appFetch(shop.host, `/my/membership/card/return?membership=${mine}`)
    expect(visitor.status).toBe(302)
    expect(visitor.headers.get('Location')).toMatch(/^\/login/)

    // A hosted-fields membership never went to a provider's page: a forged return is refused.
    const beforeOwn = await memberships()
    const forged = await appFetch(shop.host, `/my/membership/card/return?membership=${mine}&status=success&token=auth:999&card=4242`, { cookie: buyer.cookie })
    expect(forged.status).toBe(303)
    expect(forged.headers.get('Location')).toBe(`/panel?membership_error=card_not_supported&membership=${mine}#membership-${mine}`)
    expect(await memberships()).toEqual(beforeOwn)

    // Tpay's card page started, the student comes back without entering a card, with forged values.
    const started = await appFetch(shop.host, '/my/membership/card', { cookie: buyer.cookie, form: { intent: 'provider', membership_id: mineTpay } })
    expect(started.status).toBe(303)
    const row = async () =>
      (await env.DB_SHARD_0.prepare('SELECT card_token, card_last4, card_brand, card_exp_month, card_exp_year FROM memberships WHERE tenant_id = ? AND id = ?').bind(shop.tenantId, mineTpay).first())!
    const card = await row()
    const back = await appFetch(shop.host, `/my/membership/card/return?membership=${mineTpay}&status=success&tokenization=${encodeURIComponent(SCRIPT)}&card_token=forged`, { cookie: buyer.cookie })
    expect(back.status).toBe(303)
    expect(back.headers.get('Location')).toMatch(new RegExp(`^/panel\\?membership_error=card_[a-z_]+&membership=${mineTpay}#membership-${mineTpay}$`))
    expect(await row()).toEqual(card)
  })
})

describe('checkout: company lookup and BLIK code under hostile input', () => {
  let n = 0
  /** Each probe from its own address: the per-IP limit is not what is probed here. */
  const lookup = (query: string) => appFetch(shop.host, `/checkout/company-lookup?${query}`, { headers: { 'CF-Connecting-IP': `10.77.${Math.floor(++n / 250)}.${n % 250}` } })

  it('hostile nip/vat values → 422 checksum, no register asked, nothing cached or counted', async () => {
    const before = [await countAll('company_lookups'), await countPlatformCounters()]
    for (const query of [
      `nip=${encodeURIComponent(SCRIPT)}`,
      `vat=${encodeURIComponent(SCRIPT)}`,
      `nip=${encodeURIComponent(`123456321${NUL}9`)}`,
      `nip=${encodeURIComponent(`${RTL}1234563219`)}`,
      `nip=${LONG}`,
      `vat=PL${'1'.repeat(5000)}`,
      'nip[]=1234563218',
      'nip=1234563219&nip=1234563218',
      'nip=&vat=',
      'nip=12345632181234563218',
      'vat=XX123456789',
      `vat=${encodeURIComponent("DE' OR 1=1 --")}`,
    ]) {
      const res = await lookup(query)
      expect(res.status, query.slice(0, 80)).toBe(422)
      expect(await res.json()).toEqual({ ok: false, reason: 'checksum' })
    }
    expect((await appFetch(shop.host, '/checkout/company-lookup?nip=1234563218', { method: 'POST' })).status).toBe(405)
    expect([await countAll('company_lookups'), await countPlatformCounters()]).toEqual(before)
  })

  it('a BLIK code with letters, 7 digits, a script, NUL or non-ASCII digits → the field error in Polish, no transaction', async () => {
    const before = await count('transactions', shop.tenantId)
    const path = `/${courseSlug}/checkout`
    for (const code of ['abcdef', '1234567', '12345', SCRIPT, `12345${NUL}6`, `${RTL}123456`, '١٢٣٤٥٦', LONG]) {
      const res = await appFetch(shop.host, path, { cookie: buyer.cookie, form: { integration: p24Id, blik_code: code, terms: 'on', waiver: 'on' } })
      expect(res.status, JSON.stringify(code).slice(0, 40)).toBe(422)
      const html = await res.text()
      expect(html).toContain('Kod BLIK ma 6 cyfr.')
      expect(html).not.toContain(SCRIPT)
    }
    // Repeated fields: the first code counts.
    const repeated = await appFetch(shop.host, path, {
      method: 'POST',
      cookie: buyer.cookie,
      ...rawForm([
        ['integration', p24Id],
        ['blik_code', 'abcdef'],
        ['blik_code', '123456'],
        ['terms', 'on'],
        ['waiver', 'on'],
      ]),
    })
    expect(repeated.status).toBe(422)
    expect(await repeated.text()).toContain('Kod BLIK ma 6 cyfr.')
    expect(await count('transactions', shop.tenantId)).toBe(before)
  })
})
