#!/usr/bin/env node
// Stats benchmark (issue 24 item 3): "the queries stay index-backed and fast at the bench's scale".
// The deploy bundle (wrangler deploy --dry-run) on ONE workerd process (miniflare), one Polish
// school (Europe/Warsaw) with 10,000 students, 200 published courses of 10 lectures, 20,000
// enrolments with lecture progress, 20,000 sales over the last year (PLN and EUR, refunds, promo
// codes, affiliate partners), 5,000 leads and 90 days of page views; a signed-in owner. autocannon
// on /home/stats (last 30 days by day, last 90 days by week, a year by month), then EXPLAIN QUERY
// PLAN of every statement of the page's batch exactly as drizzle builds it (statsStatements).
//
//   node bench/stats.mjs [--seconds 10] [--connections 1] [--warmup 3] [--skip-build] [--write]
//
// Build: like bench/community-feed.mjs (a scratch copy of the working tree; --skip-build bundles
// the repo's last build/ under the shared lock). --write replaces the marked block in
// docs/benchmarks.md; without it the block is printed only.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { appWorkerOptions, ensureBenchDeps, migrate, probe, work as benchWork } from './storefront.mjs'

const benchDir = import.meta.dirname
const root = resolve(benchDir, '..')
const work = join(benchWork, 'stats')
const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const num = (name, fallback) => {
  const i = argv.indexOf(name)
  return i === -1 ? fallback : Number(argv[i + 1])
}
const SECONDS = num('--seconds', 10)
const CONNECTIONS = num('--connections', 1)
const WARMUP = num('--warmup', 3)
const log = (...a) => console.log('•', ...a)

// ---------------------------------------------------------------------------------------------
// 1. build in a scratch copy of the working tree
function build() {
  const src = join(work, 'src')
  const out = join(work, 'app')
  rmSync(src, { recursive: true, force: true })
  rmSync(out, { recursive: true, force: true })
  mkdirSync(src, { recursive: true })
  const files = execFileSync('git', ['-C', root, 'ls-files', '-co', '--exclude-standard', '-z'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 })
    .split('\0')
    .filter((f) => f && !f.startsWith('bench/'))
  for (const f of files) {
    if (!existsSync(join(root, f))) continue // deleted in the working tree
    mkdirSync(dirname(join(src, f)), { recursive: true })
    cpSync(join(root, f), join(src, f))
  }
  symlinkSync(join(root, 'node_modules'), join(src, 'node_modules'))
  const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length
  let source = `working tree at ${head}${dirty ? ` + ${dirty} uncommitted paths` : ''}`
  const env = { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', CI: 'true' }
  if (flag('--skip-build')) {
    if (!existsSync(join(root, 'build', 'server'))) throw new Error('--skip-build: no build/ in the repo; run `flock /tmp/build.lock npm run build` or drop --skip-build')
    // The repo's build/ is shared with other sessions: copy it under the shared lock.
    execFileSync('flock', ['-s', '/tmp/build.lock', 'cp', '-r', join(root, 'build'), join(src, 'build')])
    source += " (the repo's last `build/`, bundled by wrangler)"
    log(`bundling the repo's last build/ (${source})`)
  } else {
    log(`building a scratch copy of the ${source} in ${src}`)
    const r = spawnSync('npm', ['run', 'build', '--silent'], { cwd: src, encoding: 'utf8', env })
    if (r.status !== 0) throw new Error(`npm run build failed:\n${(r.stdout + r.stderr).split('\n').slice(-30).join('\n')}`)
  }
  const wrangler = join(root, 'node_modules', '.bin', 'wrangler')
  const r = spawnSync(wrangler, ['deploy', '--dry-run', '--outdir', out], { cwd: src, encoding: 'utf8', env })
  if (r.status !== 0 || !existsSync(join(out, 'server.js'))) throw new Error(`wrangler deploy --dry-run failed:\n${(r.stdout + r.stderr).split('\n').slice(-30).join('\n')}`)
  return { source, out }
}

// ---------------------------------------------------------------------------------------------
// 2. seed: multi-row INSERTs (under D1's statement size limit), ten statements per batch
const q = (v) => (v === null || v === undefined ? 'NULL' : typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`)
const DAY = 24 * 3600 * 1000
const HOUR = 3600 * 1000

async function insertRows(db, table, cols, rows) {
  const head = `INSERT INTO ${table} (${cols.join(', ')}) VALUES `
  const statements = []
  let values = []
  let size = head.length
  for (const r of rows) {
    const v = `(${r.map(q).join(', ')})`
    if (size + v.length > 90_000 && values.length) {
      statements.push(head + values.join(', '))
      values = []
      size = head.length
    }
    values.push(v)
    size += v.length + 2
  }
  if (values.length) statements.push(head + values.join(', '))
  for (let i = 0; i < statements.length; i += 10) await db.batch(statements.slice(i, i + 10).map((s) => db.prepare(s)))
  return rows.length
}

const TID = 'st-0'
const SLUG = 'stats-bench'
const STUDENTS = 10_000
const COURSES = 200
const LECTURES = 10
const ENROLMENTS = 20_000
const SALES = 20_000
const LEADS = 5_000
const VIEW_DAYS = 90

// A fixed pseudo-random sequence: every run seeds the same school.
let state = 42
const rand = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648
const pick = (n) => Math.floor(rand() * n)

async function seed(db) {
  const now = Date.now()
  let rows = 0
  rows += await insertRows(
    db,
    'tenants',
    ['id', 'slug', 'name', 'status', 'language', 'currency', 'author_name', 'bio', 'created_at', 'updated_at'],
    [[TID, SLUG, 'Stats Bench School', 'active', 'pl', 'PLN', 'Bench Author', 'Uczy.', now - 400 * DAY, now]],
  )
  rows += await insertRows(
    db,
    'domains',
    ['id', 'tenant_id', 'hostname', 'kind', 'verification_status', 'created_at', 'updated_at'],
    [['sd-0', TID, `${SLUG}.localhost`, 'platform_subdomain', 'active', now, now]],
  )
  const users = [['su-owner', TID, `owner@${SLUG}.test`, 'Owner', 'x', 'owner', now - 400 * DAY, now]]
  for (let i = 0; i < STUDENTS; i++) users.push([`su-${i}`, TID, `student${i}@${SLUG}.test`, `Student ${i}`, 'x', 'student', now - pick(365 * DAY), now])
  rows += await insertRows(db, 'users', ['id', 'tenant_id', 'email', 'name', 'password_hash', 'role', 'created_at', 'updated_at'], users)
  const products = []
  const sections = []
  const lectures = []
  for (let c = 0; c < COURSES; c++) {
    products.push([`sp-${c}`, TID, 'course', `Course ${c}`, `course-${c}`, 1, now - 400 * DAY, now])
    sections.push([`ss-${c}`, TID, `sp-${c}`, 'Part 1', now, now])
    for (let l = 0; l < LECTURES; l++) lectures.push([`sl-${c}-${l}`, TID, `sp-${c}`, `ss-${c}`, `Lecture ${l}`, 'text', 1, l, now, now])
  }
  rows += await insertRows(db, 'products', ['id', 'tenant_id', 'kind', 'title', 'slug', 'published', 'created_at', 'updated_at'], products)
  rows += await insertRows(db, 'sections', ['id', 'tenant_id', 'product_id', 'title', 'created_at', 'updated_at'], sections)
  rows += await insertRows(db, 'lectures', ['id', 'tenant_id', 'product_id', 'section_id', 'title', 'kind', 'published', 'position', 'created_at', 'updated_at'], lectures)
  // Enrolments: two courses per student; progress on 0–10 lectures of each (completed in order).
  const access = []
  const progress = []
  for (let i = 0; i < ENROLMENTS; i++) {
    const student = i % STUDENTS
    const course = (student * 7 + Math.floor(i / STUDENTS) * 101) % COURSES
    access.push([`sa-${i}`, TID, `sp-${course}`, `su-${student}`, 'purchase', now - 200 * DAY, now, now])
    const seen = pick(LECTURES + 1)
    const done = pick(seen + 1)
    for (let l = 0; l < seen; l++) progress.push([`sg-${i}-${l}`, TID, `su-${student}`, `sp-${course}`, `sl-${course}-${l}`, l < done ? now - DAY : null, now - DAY, now, now])
  }
  rows += await insertRows(db, 'product_access', ['id', 'tenant_id', 'product_id', 'user_id', 'source', 'starts_at', 'created_at', 'updated_at'], access)
  rows += await insertRows(db, 'lecture_progress', ['id', 'tenant_id', 'user_id', 'product_id', 'lecture_id', 'completed_at', 'last_viewed_at', 'created_at', 'updated_at'], progress)
  const codes = []
  for (let k = 0; k < 20; k++) codes.push([`sc-${k}`, TID, `CODE${k}`, 'percent', 10, now, now])
  rows += await insertRows(db, 'promo_codes', ['id', 'tenant_id', 'code', 'kind', 'value', 'created_at', 'updated_at'], codes)
  const partners = []
  for (let k = 0; k < 10; k++) partners.push([`sr-${k}`, TID, `Partner ${k}`, `partner${k}@example.com`, `REF${k}`, 'percent', 10, now, now])
  rows += await insertRows(db, 'affiliate_partners', ['id', 'tenant_id', 'name', 'email', 'code', 'commission_kind', 'commission_value', 'created_at', 'updated_at'], partners)
  // Sales over the last year (a few pending ones too, never counted): 80% PLN, 20% EUR.
  const sales = []
  for (let i = 0; i < SALES; i++) {
    const completedAt = now - pick(365 * DAY)
    const course = pick(COURSES)
    const currency = rand() < 0.8 ? 'PLN' : 'EUR'
    const total = (49 + pick(450)) * 100
    const r = rand()
    const status = r < 0.03 ? 'refunded' : r < 0.06 ? 'pending' : 'completed'
    sales.push([
      `st-${i}`,
      TID,
      `h${i}`,
      `su-${pick(STUDENTS)}`,
      `sp-${course}`,
      'course',
      `Course ${course}`,
      currency,
      total,
      total,
      now,
      `/course-${course}/checkout`,
      status,
      status === 'pending' ? null : completedAt,
      rand() < 0.1 ? `sc-${pick(20)}` : null,
      rand() < 0.05 ? `sr-${pick(10)}` : null,
      completedAt - 60_000,
      completedAt,
    ])
  }
  rows += await insertRows(
    db,
    'transactions',
    [
      'id',
      'tenant_id',
      'hash',
      'user_id',
      'product_id',
      'product_kind',
      'product_title',
      'currency',
      'unit_amount',
      'total_amount',
      'terms_accepted_at',
      'checkout_path',
      'status',
      'completed_at',
      'promo_code_id',
      'affiliate_partner_id',
      'created_at',
      'updated_at',
    ],
    sales,
  )
  const leadRows = []
  for (let i = 0; i < LEADS; i++) leadRows.push([`se-${i}`, TID, `lead${i}@example.com`, now - pick(365 * DAY)])
  rows += await insertRows(db, 'leads', ['id', 'tenant_id', 'email', 'created_at'], leadRows)
  // Page views: per course and day of the last 90, one sales-page hour and one checkout hour.
  const views = []
  const hourNow = Math.floor(now / HOUR)
  for (let c = 0; c < COURSES; c++)
    for (let d = 0; d < VIEW_DAYS; d++) {
      const hour = hourNow - d * 24 - pick(24)
      views.push([TID, `sp-${c}`, 'sales_page', hour, 1 + pick(40)])
      views.push([TID, `sp-${c}`, 'checkout', hour, 1 + pick(5)])
    }
  rows += await insertRows(db, 'page_views', ['tenant_id', 'product_id', 'kind', 'hour', 'views'], views)
  const id = token(32)
  const secret = token(32)
  rows += await insertRows(
    db,
    'sessions',
    ['id', 'tenant_id', 'user_id', 'secret_hash', 'created_at', 'last_verified_at', 'expires_at', 'login_verified_at'],
    [[id, TID, 'su-owner', createHash('sha256').update(secret).digest('hex'), now, now, now + 30 * DAY, now]],
  )
  return { rows, cookie: `cf_session=${id}.${secret}`, counts: { users: users.length, access: access.length, progress: progress.length, sales: sales.length, views: views.length } }
}

/** 32 characters of base32 (the session token format: `<id>.<secret>`, each [a-z2-7]{32}). */
function token(length) {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz234567'
  let out = ''
  for (const b of randomBytes(length)) out += alphabet[b & 31]
  return out
}

// ---------------------------------------------------------------------------------------------
// 3. the pages, checked before they are measured
const PAGES = [
  { key: '30d', label: 'last 30 days by day', path: '/home/stats' },
  { key: '90d', label: 'last 90 days by week', path: '/home/stats?range=90d&group=week' },
  { key: 'year', label: 'a year by month (custom dates)', path: null },
]

async function checkPages(base, host, cookie) {
  for (const p of PAGES) {
    const res = await probe(base, host, p.path, { Cookie: cookie })
    if (res.status !== 200) throw new Error(`${p.path} answered ${res.status}: ${res.body.slice(0, 300)}`)
    if (!res.body.includes('data-chart="revenue-PLN"') || !res.body.includes('data-funnel')) throw new Error(`${p.path}: no PLN chart or funnel on the page`)
    p.bytes = res.bytes
    const t = Date.now()
    await probe(base, host, p.path, { Cookie: cookie })
    log(`${p.path}: ${res.bytes} bytes, one request ${Date.now() - t} ms`)
  }
}

async function load(name, base, { host, path, headers = {} }) {
  const { default: autocannon } = await import('autocannon')
  const opts = { url: new URL(path, base).toString(), method: 'GET', connections: CONNECTIONS, headers: { host, ...headers } }
  if (WARMUP > 0) await autocannon({ ...opts, duration: WARMUP })
  const r = await autocannon({ ...opts, duration: SECONDS })
  const row = { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts }
  log(`${name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms${row.non2xx ? `, non-2xx ${row.non2xx}` : ''}${row.errors ? `, errors ${row.errors}` : ''}`)
  return row
}

// ---------------------------------------------------------------------------------------------
// 4. the page's statements as drizzle builds them: plan and D1's rows_read, each
const NAMES = ['sales by day', 'by product', 'by promo code', 'by partner', 'new students', 'leads', 'page views by day', 'page views by product', 'courses', 'enrolled', 'completion funnel']
async function queryPlans(d1, path) {
  const { tsImport } = await import('tsx/esm/api')
  const schema = await tsImport(join(root, 'app/db/schema.server.ts'), import.meta.url)
  const stats = await tsImport(join(root, 'app/models/stats.server.ts'), import.meta.url)
  const range = await tsImport(join(root, 'app/stats/range.ts'), import.meta.url)
  const { drizzle } = await import('drizzle-orm/d1')
  const db = drizzle(d1, { schema })
  const { range: w } = range.resolveRange(new URL(path, 'http://x').searchParams, 'Europe/Warsaw')
  const out = []
  for (const [i, statement] of stats.statsStatements(db, TID, w).entries()) {
    const { sql, params } = statement.toSQL()
    const plan = (
      await d1
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all()
    ).results.map((r) => r.detail)
    const run = await d1
      .prepare(sql)
      .bind(...params)
      .all()
    out.push({ name: NAMES[i] ?? `#${i}`, plan, rowsRead: run.meta.rows_read, rows: run.results.length })
  }
  return out
}

// ---------------------------------------------------------------------------------------------
// 5. report
function render(res) {
  const out = []
  out.push(`### Run of ${res.date}`)
  out.push('')
  out.push(`- Measured: ${res.source}; \`node bench/stats.mjs${res.args ? ` ${res.args}` : ''}\`.`)
  out.push(
    `- Machine: ${res.machine.nproc} vCPU, ${res.machine.cpu}; Node ${res.machine.node}; miniflare ${res.machine.miniflare}; load generator and workerd on the same cores (shared with other work: ${res.machine.load}).`,
  )
  out.push(
    `- Load: autocannon ${res.machine.autocannon}, ${res.settings.connections} connection(s), ${res.settings.warmup} s warm-up then ${res.settings.seconds} s per row, keep-alive; a signed-in owner.`,
  )
  const c = res.counts
  out.push(
    `- Data: one Polish school (Europe/Warsaw): ${c.users.toLocaleString('en')} users (10,000 students), ${COURSES} published courses × ${LECTURES} lectures, ${c.access.toLocaleString(
      'en',
    )} enrolments with ${c.progress.toLocaleString('en')} lecture-progress rows, ${c.sales.toLocaleString(
      'en',
    )} transactions over a year (PLN/EUR, 3% refunded, 3% pending, 10% with a promo code, 5% with a partner), ${LEADS.toLocaleString('en')} leads, ${c.views.toLocaleString(
      'en',
    )} page-view counters (90 days); seeded ${res.seedRows.toLocaleString('en')} rows in ${res.seedSeconds} s.`,
  )
  out.push('')
  out.push('| row | req/s | p50 ms | p99 ms | bytes | requests | non-2xx | errors |')
  out.push('|---|---|---|---|---|---|---|---|')
  for (const r of res.rows) out.push(`| ${r.name} | ${r.rps} | **${r.p50}** | ${r.p99} | ${r.bytes} | ${r.requests} | ${r.non2xx} | ${r.errors} |`)
  out.push('')
  out.push("The page's batch (`statsStatements`, last 90 days), each statement's plan and D1's `rows_read`:")
  out.push('')
  out.push('| statement | `EXPLAIN QUERY PLAN` | rows_read | rows |')
  out.push('|---|---|---|---|')
  for (const p of res.plans) out.push(`| ${p.name} | \`${p.plan.join(' / ')}\` | ${p.rowsRead} | ${p.rows} |`)
  return out.join('\n')
}

const START = '<!-- bench:stats:start -->'
const END = '<!-- bench:stats:end -->'
function writeDoc(md) {
  const file = join(root, 'docs', 'benchmarks.md')
  const current = readFileSync(file, 'utf8')
  if (!current.includes(START)) throw new Error(`docs/benchmarks.md has no ${START} … ${END} block`)
  writeFileSync(
    file,
    current.replace(new RegExp(`${START}[\\s\\S]*?${END}`), () => `${START}\n${md}\n${END}`),
  )
  log('wrote docs/benchmarks.md')
}

// ---------------------------------------------------------------------------------------------
async function main() {
  const t0 = Date.now()
  ensureBenchDeps()
  const { source, out } = build()
  const { Miniflare } = await import('miniflare')
  const state = join(work, 'state')
  rmSync(state, { recursive: true, force: true })
  const app = appWorkerOptions(out, 'app')
  const mf = new Miniflare({
    d1Persist: join(state, 'd1'),
    r2Persist: join(state, 'r2'),
    cachePersist: join(state, 'cache'),
    durableObjectsPersist: join(state, 'do'),
    workers: [{ ...app, durableObjects: { COMMUNITY_FEED: { className: 'CommunityFeed', useSQLite: true } } }],
  })
  try {
    await mf.ready
    const base = await mf.unsafeGetDirectURL('app')
    const d1 = await mf.getD1Database('DB')
    let t = Date.now()
    await migrate(d1)
    const seeded = await seed(d1)
    const seedSeconds = ((Date.now() - t) / 1000).toFixed(1)
    log(`seeded ${seeded.rows} rows in ${seedSeconds} s`)
    const host = `${SLUG}.localhost`
    const today = new Date().toISOString().slice(0, 10)
    const yearAgo = new Date(Date.now() - 364 * DAY).toISOString().slice(0, 10)
    PAGES[2].path = `/home/stats?range=custom&from=${yearAgo}&to=${today}&group=month`
    await checkPages(base, host, seeded.cookie)
    log('every page answered 200 with its charts')
    const plans = await queryPlans(d1, PAGES[1].path)
    for (const p of plans) log(`${p.name}: ${p.plan.join(' / ')}; rows_read ${p.rowsRead}`)
    const scans = plans.flatMap((p) => p.plan).filter((d) => /\bSCAN (transactions|users|leads|page_views|product_access|lecture_progress|lectures|products)\b(?! USING)/.test(d))
    if (scans.length) throw new Error(`a statement scans a table: ${scans.join('; ')}`)
    const loadBefore = loadavg()[0].toFixed(2)
    const rows = []
    for (const p of PAGES) {
      const row = await load(`GET /home/stats: ${p.label}`, base, { host, path: p.path, headers: { Cookie: seeded.cookie } })
      rows.push({ ...row, bytes: p.bytes })
    }
    const loadAfter = loadavg()[0].toFixed(2)
    const results = {
      date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      source,
      args: argv.filter((a) => a !== '--write').join(' '),
      settings: { connections: CONNECTIONS, warmup: WARMUP, seconds: SECONDS },
      machine: {
        nproc: cpus().length,
        cpu: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        miniflare: JSON.parse(readFileSync(join(root, 'node_modules', 'miniflare', 'package.json'), 'utf8')).version,
        autocannon: JSON.parse(readFileSync(join(benchDir, 'node_modules', 'autocannon', 'package.json'), 'utf8')).version,
        load: `1-minute load average ${loadBefore} before / ${loadAfter} after the rows`,
      },
      seedRows: seeded.rows,
      seedSeconds,
      counts: seeded.counts,
      rows,
      plans,
    }
    writeFileSync(join(work, 'results.json'), JSON.stringify(results, null, 2))
    const md = render(results)
    console.log(`\n${md}\n`)
    if (flag('--write')) writeDoc(md)
    log(`done in ${Math.round((Date.now() - t0) / 1000)} s (raw results: ${join(work, 'results.json')})`)
  } finally {
    await mf.dispose()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
