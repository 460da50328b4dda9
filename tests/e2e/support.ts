// Harness of the e2e suite (run by tests/e2e/run.mjs, which starts the stack and sets E2E_PORT).
// One Chromium per test file, a fresh context per test, screenshots of every open page on failure.
import assert from 'node:assert/strict'
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { after, test } from 'node:test'
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core'
import { decodeBase32 } from '@oslojs/encoding'
import { generateHOTP } from '@oslojs/otp'

export const PORT = Number(process.env.E2E_PORT)
if (!PORT) throw new Error('E2E_PORT is not set: run the suite through `npm run test:e2e` (tests/e2e/run.mjs)')

const root = join(import.meta.dirname, '..', '..')
const screenshotsDir = process.env.E2E_SCREENSHOTS_DIR ?? join(root, 'test-results', 'e2e')
/** E2E_SCREENSHOTS=all also keeps screenshots of key pages of passing tests (see `snap`). */
const snapAll = process.env.E2E_SCREENSHOTS === 'all'

// ---- accessibility (issue 23) -------------------------------------------------------------------
// axe-core runs on every page a test visits (visit, expectUrl) and on every page still open when the
// test ends; a serious or critical violation fails the test. E2E_AXE=report only writes them to
// test-results/a11y/violations.jsonl, E2E_AXE=off skips the checks.
const axeMode = (process.env.E2E_AXE ?? 'enforce') as 'enforce' | 'report' | 'off'
const axeSource = axeMode === 'off' ? '' : readFileSync(join(root, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8')
type A11yViolation = { url: string; rule: string; impact: string; help: string; targets: string[] }
type A11yCollector = { found: A11yViolation[]; checked: Set<string> }
const a11yCollectors = new WeakMap<Page, A11yCollector>()

/**
 * Runs axe on the page as it is now; records serious and critical violations for the page's test.
 * A URL already checked in this test is skipped (polling loops revisit one page many times) unless
 * `again` (the check of the pages left open when the test ends).
 */
export async function checkA11y(page: Page, again = false) {
  const collector = a11yCollectors.get(page)
  if (!collector || axeMode === 'off' || page.isClosed()) return
  const href = page.url()
  if (collector.checked.has(href) && !again) return
  collector.checked.add(href)
  const found = collector.found
  // Only the app's own HTML pages: not the provider peers' hosted pages, not files or JSON.
  if (!/^https?:\/\/[^/]*localhost:/.test(href) || /^https?:\/\/(s3|media)\./.test(href)) return
  const result = await page
    .evaluate(async (source) => {
      if (document.contentType !== 'text/html') return []
      const w = window as unknown as { axe?: { run: (ctx: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string | null; help: string; nodes: Array<{ target: unknown[] }> }> }> } }
      if (!w.axe) (0, eval)(source)
      // Colours mid-transition (a toggle that just changed state) are not what anyone reads: settle them.
      for (const animation of document.getAnimations()) {
        try {
          animation.finish()
        } catch {
          // an infinite animation (a spinner) cannot finish; axe skips what it cannot measure anyway
        }
      }
      const { violations } = await w.axe!.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] }, resultTypes: ['violations'] })
      return violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({ rule: v.id, impact: v.impact ?? '', help: v.help, targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')) }))
    }, axeSource)
    .catch(() => null) // the page navigated away while axe ran: the next check sees the new page
  if (!result) return
  for (const v of result) {
    const url = pathOf(href)
    if (!found.some((f) => f.url === url && f.rule === v.rule)) found.push({ url, ...v })
  }
}

export const PLATFORM = 'localhost'
export const url = (host: string, path = '/') => `http://${host}:${PORT}${path}`
export const platformUrl = (path = '/') => url(PLATFORM, path)

// ---- demo data, from the same declarations the seed uses -------------------------------------
type DemoUser = { role: 'owner' | 'admin' | 'student'; name: string; email: string; password: string }
export type DemoSchool = { slug: string; name: string; language: 'en' | 'pl'; currency: string; customDomains: string[]; users: DemoUser[] }
const tenantsDir = join(root, 'tenants')
const schools: DemoSchool[] = readdirSync(tenantsDir)
  .filter((f) => f.endsWith('.json') && f !== 'operators.json')
  .map((f) => JSON.parse(readFileSync(join(tenantsDir, f), 'utf8')) as DemoSchool)
export type DemoOperator = Omit<DemoUser, 'role'> & { role: 'admin' | 'support' | 'finance'; totpKey: string }
export const operators = JSON.parse(readFileSync(join(tenantsDir, 'operators.json'), 'utf8')) as DemoOperator[]
/** The demo operator of a role (each e2e file signs in its own, as a code works once per 30 s). */
export const demoOperator = (email: string) => {
  const operator = operators.find((o) => o.email === email)
  if (!operator) throw new Error(`No demo operator ${email} in tenants/operators.json`)
  return operator
}

export function demoSchool(slug: string) {
  const school = schools.find((s) => s.slug === slug)
  if (!school) throw new Error(`No demo school ${slug} in tenants/`)
  return school
}
export function demoUser(school: DemoSchool, role: DemoUser['role'], email?: string) {
  const user = school.users.find((u) => u.role === role && (!email || u.email === email))
  if (!user) throw new Error(`No ${role} ${email ?? ''} in ${school.slug}`)
  return user
}
export const subdomain = (slug: string) => `${slug}.${PLATFORM}`

/** A documentation address (RFC 3849) per process and call: e2e files run side by side. */
let ipCounter = 0
const uniqueClientIp = () => `2001:db8::${process.pid.toString(16)}:${(++ipCounter).toString(16)}`

/** Unique per run and test, so tests never depend on each other's data. */
let counter = 0
export function unique(prefix: string) {
  return `${prefix}-${Date.now().toString(36)}${(counter++).toString(36)}${Math.floor(Math.random() * 1296).toString(36)}`
}

// ---- browser ----------------------------------------------------------------------------------
let browser: Promise<Browser> | undefined
function getBrowser() {
  browser ??= chromium.launch({
    executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // Custom domains go through a real Host header: every test host is this machine.
      '--host-resolver-rules=MAP *.test 127.0.0.1, MAP *.localhost 127.0.0.1, MAP localhost 127.0.0.1',
    ],
  })
  return browser
}
after(async () => {
  if (browser) await (await browser).close()
})

export type BrowserTestOptions = {
  /** false: the context runs without JavaScript (progressive enhancement). */
  javaScriptEnabled?: boolean
  /** 5xx statuses this test expects (e.g. 503 of a suspended school); any other 5xx fails it. */
  allowStatuses?: number[]
  locale?: string
  /**
   * true: this context is a visitor of its own, with a client address (CF-Connecting-IP, the header
   * Cloudflare's edge sets and the stack keeps) no other context has. For tests that use a per-IP
   * limit on shared demo data (one lead per IP and school in 5 s) while another file runs beside them.
   */
  ownClientIp?: boolean
}
export type BrowserTestContext = { page: Page; context: BrowserContext; newContext: (options?: BrowserTestOptions) => Promise<BrowserContext> }

const slugify = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 80)

/**
 * A node:test test with a fresh browser context. Fails on any 5xx answer and on any JavaScript
 * dialog (an alert() would mean injected script ran). On failure, every open page is saved as
 * test-results/e2e/<test>-<n>.png.
 */
export function browserTest(name: string, fn: (t: BrowserTestContext) => Promise<void>, options: BrowserTestOptions = {}) {
  test(name, async () => {
    const b = await getBrowser()
    const contexts: BrowserContext[] = []
    const serverErrors: string[] = []
    const dialogs: string[] = []
    const startedAt = Date.now()
    const requests: TrackedRequest[] = []
    const a11y: A11yViolation[] = []
    const a11yChecked = new Set<string>()
    const newContext = async (opts: BrowserTestOptions = {}) => {
      const merged = { ...options, ...opts }
      const context = await b.newContext({
        javaScriptEnabled: merged.javaScriptEnabled ?? true,
        locale: merged.locale ?? 'en-US',
        viewport: { width: 1280, height: 900 },
        ...(merged.ownClientIp ? { extraHTTPHeaders: { 'CF-Connecting-IP': uniqueClientIp() } } : {}),
      })
      context.setDefaultTimeout(15_000)
      context.setDefaultNavigationTimeout(30_000)
      const allowed = new Set(merged.allowStatuses ?? [])
      context.on('request', (req) => {
        requests.push({ at: Date.now(), method: req.method(), url: req.url(), status: null, request: req })
        if (requests.length > 200) requests.shift()
      })
      context.on('response', (res) => {
        const tracked = lastTracked(requests, res.request())
        if (tracked) tracked.status = res.status()
        if (res.status() >= 500 && !allowed.has(res.status())) serverErrors.push(`${res.status()} ${res.request().method()} ${res.url()}`)
      })
      context.on('requestfailed', (req) => {
        const tracked = lastTracked(requests, req)
        if (tracked) tracked.status = `failed: ${req.failure()?.errorText ?? '?'}`
      })
      context.on('dialog', (dialog) => {
        dialogs.push(`${dialog.type()}: ${dialog.message()}`)
        void dialog.dismiss().catch(() => {})
      })
      contexts.push(context)
      // axe needs the page's JavaScript; contexts without it are checked through their JS-enabled twins.
      if (merged.javaScriptEnabled !== false) context.on('page', (p) => a11yCollectors.set(p, { found: a11y, checked: a11yChecked }))
      return context
    }
    const context = await newContext()
    const page = await context.newPage()
    try {
      await fn({ page, context, newContext })
      for (const c of contexts) for (const p of c.pages()) await checkA11y(p, true)
      if (a11y.length && axeMode === 'report') {
        mkdirSync(join(root, 'test-results', 'a11y'), { recursive: true })
        appendFileSync(join(root, 'test-results', 'a11y', 'violations.jsonl'), a11y.map((v) => JSON.stringify({ test: name, ...v })).join('\n') + '\n')
      }
      assert.deepEqual(serverErrors, [], 'the server answered with 5xx')
      if (axeMode === 'enforce') assert.deepEqual(a11y, [], 'axe-core found serious or critical accessibility violations')
      assert.deepEqual(dialogs, [], 'a JavaScript dialog opened (injected script ran?)')
    } catch (error) {
      mkdirSync(screenshotsDir, { recursive: true })
      const shots: string[] = []
      for (const c of contexts) {
        for (const p of c.pages()) {
          const path = join(screenshotsDir, `${slugify(name)}-${shots.length + 1}.png`)
          if (await p.screenshot({ path, fullPage: true }).then(() => true, () => false)) shots.push(path)
        }
      }
      const where = contexts.flatMap((c) => c.pages().map((p) => p.url()))
      if (error instanceof Error) {
        const before = error.message
        error.message += failureReport({ name, where, shots, serverErrors, requests, startedAt })
        if (error.stack) error.stack = error.stack.replace(before, error.message)
      }
      throw error
    } finally {
      for (const c of contexts) await c.close().catch(() => {})
    }
  })
}

type TrackedRequest = { at: number; method: string; url: string; status: number | string | null; request: unknown }

function lastTracked(requests: TrackedRequest[], request: unknown) {
  for (let i = requests.length - 1; i >= 0; i--) if (requests[i].request === request) return requests[i]
  return undefined
}

const time = (ms: number) => new Date(ms).toISOString().slice(11, 23)
const pathOf = (href: string) => {
  try {
    return new URL(href).pathname
  } catch {
    return href
  }
}

/**
 * What a person needs to see why a test failed: the pages open at the end, the screenshots, the
 * test's last requests (the last one is the step it was on) and the server's log lines for them
 * (E2E_SERVER_LOG, written by the stack with an ISO time on each line; another file's lines that
 * run at the same time are left out by path).
 */
function failureReport({ name, where, shots, serverErrors, requests, startedAt }: { name: string; where: string[]; shots: string[]; serverErrors: string[]; requests: TrackedRequest[]; startedAt: number }) {
  const own = requests.filter((r) => !/\/(assets\/|favicon)/.test(pathOf(r.url)) && r.url.startsWith('http'))
  const last = own.slice(-8)
  const lines = [`\n    test: ${name}`, `    open pages: ${where.join(', ') || '(none)'}`]
  if (serverErrors.length) lines.push(`    5xx: ${serverErrors.join('; ')}`)
  lines.push(`    screenshots: ${shots.join(', ') || '(none)'}`)
  lines.push(`    last requests of this test:`)
  for (const r of last) lines.push(`      ${time(r.at)} ${r.method} ${r.url} → ${r.status ?? 'no answer yet'}`)
  const logFile = process.env.E2E_SERVER_LOG
  if (logFile && existsSync(logFile)) {
    const paths = new Set(last.map((r) => pathOf(r.url)))
    const since = new Date(Math.max(startedAt, (last[0]?.at ?? startedAt) - 1000)).toISOString()
    const isRequestLine = (l: string) => /^\S+ (GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \//.test(l)
    const log = readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.slice(0, 24) >= since)
      .filter((l) => (isRequestLine(l) ? paths.has(l.split(' ')[2] ?? '') : l.trim() !== ''))
      .slice(-25)
    lines.push(`    server log for them (${logFile}):`)
    for (const l of log) lines.push(`      ${l}`)
  }
  return lines.join('\n')
}

/** Screenshot of a key page, kept only with E2E_SCREENSHOTS=all (for looking at the UI). */
export async function snap(page: Page, name: string) {
  if (!snapAll) return
  mkdirSync(screenshotsDir, { recursive: true })
  await page.screenshot({ path: join(screenshotsDir, `page-${slugify(name)}.png`), fullPage: true })
}

/**
 * The review set of issue 23, written on every run: the page at desktop 1280 px and mobile 390 px as
 * test-results/screenshots/{name}-desktop.png and -mobile.png. Restores the 1280 px viewport.
 */
export async function screenshotSet(page: Page, name: string) {
  const dir = join(root, 'test-results', 'screenshots')
  mkdirSync(dir, { recursive: true })
  for (const [kind, width] of [['mobile', 390], ['desktop', 1280]] as const) {
    await page.setViewportSize({ width, height: 900 })
    await page.evaluate(() => window.scrollTo(0, 0)) // sticky parts (the panel's sidebar) at their place
    await page.screenshot({ path: join(dir, `${slugify(name)}-${kind}.png`), fullPage: true })
  }
}

// ---- page helpers -------------------------------------------------------------------------------

/** Visit a page and assert its HTTP status. */
export async function visit(page: Page, href: string, status = 200) {
  const response = await page.goto(href)
  assert.ok(response, `no response for ${href}`)
  assert.equal(response.status(), status, `HTTP status of ${href}`)
  await checkA11y(page)
  return response
}

/** At checkout, choose a payment method by provider ('test', 'payu', 'stripe') when the school offers more than one. */
export async function choosePayment(page: Page, provider: 'test' | 'payu' | 'stripe') {
  const radio = page.locator(`[data-checkout-methods] input[data-provider="${provider}"]`)
  if (await radio.count()) await radio.check()
}

/**
 * A new visitor buys `slug` at its checkout (registering there), pays with the built-in test provider
 * and waits for the pending page's success. Labels follow the school's language.
 */
export async function buyAsNewVisitor(page: Page, host: string, slug: string, buyer: { name: string; email: string; password: string }, language: 'en' | 'pl') {
  await visit(page, url(host, `/${slug}/checkout`))
  await page.locator('form [name="name"]').fill(buyer.name)
  await page.locator('form [name="email"]').fill(buyer.email)
  await page.locator('form [name="password"]').fill(buyer.password)
  await page.locator('form [name="terms"]').check()
  const waiver = page.locator('form [name="waiver"]')
  if (await waiver.count()) await waiver.check()
  await choosePayment(page, 'test')
  await page.locator('[data-checkout-submit]').click()
  await page.locator('[data-test-payment]').waitFor()
  await page.getByRole('button', { name: language === 'pl' ? 'Zapłać' : 'Pay', exact: true }).click()
  await expectText(page.locator('[data-pending-result="success"]'), language === 'pl' ? 'Płatność zakończona sukcesem' : 'Payment successful', 30_000)
}

/** Load every lazy image now and wait for them, so no late layout shift moves a button under a click. */
export async function settleImages(page: Page) {
  await page.evaluate(() => document.querySelectorAll('img[loading="lazy"]').forEach((img) => img.setAttribute('loading', 'eager')))
  await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete), undefined, { timeout: 15000 })
}

/** The error shown under a form field (data-field-error="name"). */
export const fieldError = (page: Page, field: string) => page.locator(`[data-field-error="${field}"]`)
export const alertBox = (page: Page) => page.getByRole('alert')
export const heading = (page: Page) => page.locator('main h1').first()

/** Fill a form field by name, ignoring maxlength/required (a hostile client ignores them too). */
export async function fillRaw(page: Page, name: string, value: string) {
  const input = page.locator(`form [name="${name}"]`).first()
  await input.evaluate((el) => {
    el.removeAttribute('maxlength')
    el.removeAttribute('minlength')
    el.removeAttribute('pattern')
  })
  await input.fill(value)
}

/** Submit the login form of the school the page is on. */
export async function logIn(page: Page, host: string, email: string, password: string) {
  await visit(page, url(host, '/login'))
  await page.locator('form [name="email"]').fill(email)
  await page.locator('form [name="password"]').fill(password)
  // Resolves once the login's answer (and its session cookie) has arrived: a caller that navigates
  // on at once would otherwise cancel it in flight and stay signed out (seen in a CI run).
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.startsWith('/login'))
  await page.locator('main form button[type="submit"]').click()
  await answered
}

/** The last TOTP step this process signed each operator in with: a code is accepted only once. */
const spentStep = new Map<string, number>()

/**
 * An operator's sign-in through the forms: password, then the code an authenticator app would show
 * for the demo key. Within one step the next step's code is used (accepted: one step of drift).
 */
export async function operatorLogIn(page: Page, operator: DemoOperator) {
  await visit(page, platformUrl('/operator/login'))
  await page.locator('form [name="email"]').fill(operator.email)
  await page.locator('form [name="password"]').fill(operator.password)
  await page.locator('main form button[type="submit"]').click()
  await expectUrl(page, 'localhost', '/operator/two-factor')
  const now = Math.floor(Date.now() / 30_000)
  const step = Math.max(now, (spentStep.get(operator.email) ?? -1) + 1)
  spentStep.set(operator.email, step)
  await page.locator('form [name="code"]').fill(generateHOTP(decodeBase32(operator.totpKey), BigInt(step), 6))
  await page.getByRole('button', { name: 'Verify' }).click()
  await expectUrl(page, 'localhost', '/operator')
}

/** Register a student at a school through its form; resolves once the page after submit has loaded. */
export async function register(page: Page, host: string, user: { name: string; email: string; password: string; confirmation?: string }) {
  await visit(page, url(host, '/register'))
  await page.locator('form [name="name"]').fill(user.name)
  await page.locator('form [name="email"]').fill(user.email)
  await page.locator('form [name="password"]').fill(user.password)
  await page.locator('form [name="password_confirmation"]').fill(user.confirmation ?? user.password)
  await page.locator('main form button[type="submit"]').click()
}

/**
 * Wait for the URL after a form submission (client-side or full navigation; a client-side one
 * commits once the next route's chunks have loaded).
 */
export async function expectUrl(page: Page, host: string, path: string) {
  const expected = url(host, path)
  try {
    await page.waitForURL(expected, { timeout: 15_000 })
  } catch {
    assert.fail(`expected to land on ${expected}, but the page is ${page.url()}`)
  }
  await checkA11y(page)
}

/** Wait until one of the elements matched by `locator` shows `expected`; fail with what it shows. */
export async function expectText(locator: Locator, expected: string | RegExp, timeout = 10_000) {
  try {
    await locator.filter({ hasText: expected }).first().waitFor({ state: 'visible', timeout })
  } catch {
    const actual = await locator.allInnerTexts().catch(() => [])
    assert.fail(`expected ${locator} to show ${expected}, it shows ${JSON.stringify(actual)}`)
  }
}

/** The document's <title> and <html lang>. */
export async function documentInfo(page: Page) {
  return { title: await page.title(), lang: await page.locator('html').getAttribute('lang') }
}

// ---- flows shared by several files ------------------------------------------------------------

export type NewSchool = { slug: string; name: string; owner: { name: string; email: string; password: string }; language: 'en' | 'pl' }

/** Fill and submit the platform's signup form. */
export async function signUp(page: Page, school: NewSchool, currency = school.language === 'pl' ? 'PLN' : 'USD') {
  // Every creator signs up from an address of their own, as on the real edge: the platform allows
  // 5 signups an hour per IP (ADR 024), and the e2e files create far more schools than that.
  const ip = uniqueClientIp()
  await page.route(
    (u) => u.hostname === 'localhost' && u.pathname.startsWith('/signup'),
    (route) => route.continue({ headers: { ...route.request().headers(), 'cf-connecting-ip': ip } }),
  )
  await visit(page, platformUrl('/signup'))
  const form = page.locator('main form')
  await form.locator('[name="school_name"]').fill(school.name)
  await form.locator('[name="slug"]').fill(school.slug)
  await form.locator('[name="language"]').selectOption(school.language)
  await form.locator('[name="currency"]').selectOption(currency)
  await form.locator('[name="name"]').fill(school.owner.name)
  await form.locator('[name="email"]').fill(school.owner.email)
  await form.locator('[name="password"]').fill(school.owner.password)
  await form.locator('[name="password_confirmation"]').fill(school.owner.password)
  await form.locator('button[type="submit"]').click()
}

export function newSchool(language: 'en' | 'pl' = 'en'): NewSchool {
  const slug = unique('e2e')
  return {
    slug,
    name: `Pracownia ${slug}`,
    language,
    owner: { name: 'Ewa Testowa', email: `${slug}@example.com`, password: 'owner-pass-123' },
  }
}

/**
 * The owner, signed in on `host`, creates a paid course (the two-step form, English labels) and
 * publishes it; returns its slug.
 */
export async function publishPaidCourse(page: Page, host: string, title: string, price: string) {
  await visit(page, url(host, '/home/products/new?kind=course'))
  await page.locator('form[data-step="1"] [name="title"]').fill(title)
  await page.getByRole('button', { name: 'Continue' }).click()
  const step2 = page.locator('form[data-step="2"]')
  await step2.waitFor()
  await step2.locator('[name="price"]').fill(price)
  await step2.getByRole('button', { name: 'Create product' }).click()
  await page.waitForURL(/\/home\/products\/[a-z2-7]+$/)
  await page.locator('[data-done="created"]').waitFor()
  const slug = await page.locator('form [name="slug"]').inputValue()
  if (!slug) throw new Error('the new product has no slug')
  // Issue 23 item 3: a course is published only with a published lecture.
  const productPath = new URL(page.url()).pathname
  await page.getByRole('link', { name: 'Curriculum' }).first().click()
  await page.waitForURL(/\/sections$/)
  await page.getByLabel('Section title').fill('Start')
  await page.getByRole('button', { name: 'Add section' }).click()
  await page.getByRole('link', { name: 'Add lecture to Start' }).click()
  await page.waitForURL(/\/lectures\/create$/)
  await page.getByLabel('Title', { exact: true }).fill('Welcome')
  await page.getByLabel('Type', { exact: true }).selectOption('text')
  await page.locator('textarea[name="body"]').fill('Welcome to the course.')
  await page.locator('input[name="published"]').check()
  await page.getByRole('button', { name: 'Create lecture' }).click()
  await expectText(page.locator('[role="status"]'), 'Created')
  await visit(page, url(host, productPath))
  await page.getByRole('button', { name: 'Publish', exact: true }).click()
  await page.locator('[data-done="published"]').waitFor()
  return slug
}
