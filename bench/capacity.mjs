#!/usr/bin/env node
// Capacity bench (issue 26 §3): what one school costs in D1 rows and bytes, and what a page view, a
// video watch heartbeat and a sale cost in D1 queries, Queues messages and R2 operations — measured on
// the deployable app bundle (the repo's last `build/worker/server.js`) on ONE workerd (miniflare) with
// a local D1. docs/capacity.md turns the numbers into shards, limits and a monthly bill.
//
//   node bench/capacity.mjs [--write] [--sales 20000] [--render-only]
//
// How it counts without touching app code: the app worker's D1 bindings (the control plane DB and
// the shards DB_SHARD_n, ADR 033), MEDIA and five queue producers are
// miniflare *wrapped bindings* — a small module in the app's own isolate that forwards every call to
// the real binding and posts one line per call (SQL + parameters, queue + message size, R2 method)
// to a log worker. A page's count is what the log holds once it has stopped growing after the
// answer (so `ctx.waitUntil` work is counted too). D1's `rows_read` comes from re-running each
// captured read with its parameters on the same D1 (`.all()` meta), writes' `rows_written` from the
// meta of the app's own `run`/`all`/`batch` calls. Every line names its binding: the totals cover
// the control plane and the shards together, and the control-plane share is shown beside them.
// Bytes per table come from SQLite's `dbstat` (table + its indexes) on the persisted D1 files
// (control plane + shards), read with the `sqlite3` CLI after workerd stops.
//
// Data: the storefront bench's school (bench/lib/seed.mjs seedBig, on shard 0: 200 courses × 20 lectures,
// 10,000 students, 2 enrolments each, 12 reviews per course), then one real sale through the app
// (checkout → test-provider notification → settlement), whose rows are cloned to `--sales` sales
// (one per enrolment), plus a year of activity written with SQL: lecture progress (~1/4 of the
// enrolled lectures), comments, replies, votes, a session per student, leads, community posts and
// page-view counters. --write replaces the marked block in docs/capacity.md.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { createHmac, randomBytes } from 'node:crypto'
import { request as httpRequest } from 'node:http'
import { BIG, COURSE_INDEX, QUEUES, migrateAll, openDbs, seedBig } from './lib/seed.mjs'
import { appWorkerOptions, work as benchWork } from './storefront.mjs'

const benchDir = import.meta.dirname
const root = resolve(benchDir, '..')
const work = join(benchWork, 'capacity')
const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const num = (name, fallback) => {
  const i = argv.indexOf(name)
  return i === -1 ? fallback : Number(argv[i + 1])
}
const SALES = num('--sales', 20_000)
const STUDENTS = 10_000 // seedBig's shape
const TEST_SECRET = 'capacity-bench-test-payments-secret'
const log = (...a) => console.log('•', ...a)
const TID = `bt-${BIG.n}`
const HOST = `${BIG.slug}.localhost`

// ---------------------------------------------------------------------------------------------
// 1. the bundle: the repo's last build (never rebuilt here), copied under the shared build lock
function copyBuild() {
  const src = join(root, 'build', 'worker', 'server.js')
  if (!existsSync(src)) throw new Error('no build/worker/server.js: the lead builds (`npm run build`); this bench never does')
  const out = join(work, 'app')
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  execFileSync('flock', ['-s', '/tmp/build.lock', 'cp', src, join(out, 'server.js')])
  const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length
  const built = statSync(src)
    .mtime.toISOString()
    .replace(/\.\d+Z$/, 'Z')
  return { out, source: `build/worker/server.js of ${built} (working tree at ${head}${dirty ? ` + ${dirty} uncommitted paths` : ''})` }
}

// ---------------------------------------------------------------------------------------------
// 2. counting wrappers (wrapped bindings: evaluated in the app's isolate, forwarding to the real one)
const LOG_WORKER = `let entries = []
export default {
  async fetch(request) {
    const { pathname } = new URL(request.url)
    if (pathname === '/add') { entries.push(await request.json()); return new Response('ok') }
    if (pathname === '/count') return new Response(String(entries.length))
    if (pathname === '/take') { const e = entries; entries = []; return Response.json(e) }
    return new Response('not found', { status: 404 })
  },
}`

// Every statement keeps its SQL and parameters; batch = one round trip of several statements. One
// wrapper script for every D1 binding: D1_BINDING picks the real one, every line carries its name.
const D1_WRAPPER = `export default function (env) {
  const inner = env[env.D1_BINDING]
  const db = env.D1_NAME
  const post = (entry) => env.LOG.fetch('http://log/add', { method: 'POST', body: JSON.stringify({ db, ...entry }) })
  const meta = (r) => (r && r.meta ? { rowsRead: r.meta.rows_read ?? null, rowsWritten: r.meta.rows_written ?? null } : {})
  class Statement {
    constructor(stmt, sql, params) { this.stmt = stmt; this.sql = sql; this.params = params }
    bind(...params) { return new Statement(this.stmt.bind(...params), this.sql, params) }
    async all() { const r = await this.stmt.all(); await post({ kind: 'd1', via: 'all', sql: this.sql, params: this.params, ...meta(r) }); return r }
    async run() { const r = await this.stmt.run(); await post({ kind: 'd1', via: 'run', sql: this.sql, params: this.params, ...meta(r) }); return r }
    async first(column) { const r = await this.stmt.first(column); await post({ kind: 'd1', via: 'first', sql: this.sql, params: this.params }); return r }
    async raw(options) { const r = await this.stmt.raw(options); await post({ kind: 'd1', via: 'raw', sql: this.sql, params: this.params }); return r }
  }
  // The database and each D1 Sessions API session of it (the app reads and writes the shards through
  // withSession, ADR 033): both count their statements.
  const wrap = (target) => ({
    prepare(sql) { return new Statement(target.prepare(sql), sql, []) },
    async batch(statements) {
      const r = await target.batch(statements.map((s) => s.stmt))
      await post({ kind: 'd1-batch', statements: statements.map((s, i) => ({ sql: s.sql, params: s.params, ...meta(r[i]) })) })
      return r
    },
    async exec(sql) { const r = await target.exec(sql); await post({ kind: 'd1', via: 'exec', sql, params: [] }); return r },
    dump() { return target.dump() },
    withSession(...a) { const session = target.withSession(...a); return { ...wrap(session), getBookmark: () => session.getBookmark() } },
  })
  return wrap(inner)
}`

const R2_WRAPPER = `export default function (env) {
  const inner = env.INNER
  const post = (entry) => env.LOG.fetch('http://log/add', { method: 'POST', body: JSON.stringify(entry) })
  const wrapped = {}
  for (const op of ['head', 'get', 'put', 'delete', 'list', 'createMultipartUpload', 'resumeMultipartUpload']) {
    wrapped[op] = async (...args) => { await post({ kind: 'r2', op, key: typeof args[0] === 'string' ? args[0] : null }); return inner[op](...args) }
  }
  return wrapped
}`

const QUEUE_WRAPPER = `export default function (env) {
  const inner = env[env.QUEUE_BINDING]
  const post = (entry) => env.LOG.fetch('http://log/add', { method: 'POST', body: JSON.stringify(entry) })
  const size = (body) => { try { return JSON.stringify(body).length } catch { return null } }
  return {
    async send(body, options) { const r = await inner.send(body, options); await post({ kind: 'queue', queue: env.QUEUE_NAME, messages: 1, bytes: size(body) }); return r },
    async sendBatch(messages, options) { const r = await inner.sendBatch(messages, options); await post({ kind: 'queue', queue: env.QUEUE_NAME, messages: messages.length, bytes: messages.reduce((n, m) => n + (size(m.body) ?? 0), 0) }); return r },
  }
}`


async function startWorkerd(out) {
  const { Miniflare } = await import('miniflare')
  const state = join(work, 'state')
  rmSync(state, { recursive: true, force: true })
  const base = appWorkerOptions(out, 'app')
  const { d1Databases, r2Buckets: _r2, queueProducers: _q, ...rest } = base
  const wrapped = { MEDIA: { scriptName: 'cap-r2' } }
  for (const binding of Object.keys(d1Databases)) wrapped[binding] = { scriptName: 'cap-d1', bindings: { D1_BINDING: `INNER_${binding}`, D1_NAME: binding } }
  for (const [binding, queue] of Object.entries(QUEUES)) wrapped[binding] = { scriptName: 'cap-queues', bindings: { QUEUE_BINDING: `Q_${binding}`, QUEUE_NAME: queue } }
  // Production mode, but the built-in test provider is allowed (as on a staging deployment):
  // the sale runs the real checkout, notification and settlement code.
  const app = {
    ...rest,
    bindings: { ...rest.bindings, ENVIRONMENT: 'production', ALLOW_TEST_PAYMENTS: 'true', TEST_PAYMENTS_SECRET: TEST_SECRET },
    wrappedBindings: wrapped,
    durableObjects: { COMMUNITY_FEED: { className: 'CommunityFeed', useSQLite: true } },
  }
  const script = (name, contents) => ({ modules: [{ type: 'ESModule', path: join(work, `${name}.mjs`), contents }] })
  const mf = new Miniflare({
    d1Persist: join(state, 'd1'),
    r2Persist: join(state, 'r2'),
    cachePersist: join(state, 'cache'),
    durableObjectsPersist: join(state, 'do'),
    queuesPersist: join(state, 'queues'),
    workers: [
      app,
      // The same bundle with PAGE_CACHE=off: no page cache, no loader-data cache (every loader reads D1).
      { ...app, name: 'app-cold', bindings: { ...app.bindings, PAGE_CACHE: 'off' }, durableObjects: undefined },
      { name: 'cap-log', modules: true, script: LOG_WORKER, unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }] },
      {
        name: 'cap-d1',
        ...script('cap-d1', D1_WRAPPER),
        d1Databases: Object.fromEntries(Object.entries(d1Databases).map(([b, id]) => [`INNER_${b}`, id])),
        serviceBindings: { LOG: 'cap-log' },
      },
      { name: 'cap-r2', ...script('cap-r2', R2_WRAPPER), r2Buckets: { INNER: 'coursefront-media' }, serviceBindings: { LOG: 'cap-log' } },
      {
        name: 'cap-queues',
        ...script('cap-queues', QUEUE_WRAPPER),
        queueProducers: Object.fromEntries(Object.entries(QUEUES).map(([b, q]) => [`Q_${b}`, { queueName: q }])),
        serviceBindings: { LOG: 'cap-log' },
      },
      // Seeding and re-running reads from Node, on the same database, outside the app's count.
      { name: 'seed', modules: true, script: 'export default { fetch() { return new Response("seed") } }', d1Databases },
    ],
  })
  await mf.ready
  return {
    mf,
    app: await mf.unsafeGetDirectURL('app'),
    appCold: await mf.unsafeGetDirectURL('app-cold'),
    logUrl: await mf.unsafeGetDirectURL('cap-log'),
    // Every database by binding, as the app sees them; `d1` (the school's shard) is set once seeded.
    dbs: await openDbs(mf, 'seed'),
  }
}

// ---------------------------------------------------------------------------------------------
// 3. requests and their counts
function send(base, path, { method = 'GET', headers = {}, body } = {}) {
  return new Promise((res, rej) => {
    const u = new URL(path, base)
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, headers: { Host: HOST, ...headers } }, (r) => {
      const chunks = []
      r.on('data', (c) => chunks.push(c))
      r.on('end', () => res({ status: r.statusCode, headers: r.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', rej)
    if (body) req.write(body)
    req.end()
  })
}

const getText = async (url) => (await fetch(url)).text()

/** The log once it has stopped growing (waitUntil work included), then emptied. */
async function takeLog(logUrl) {
  let last = -1
  for (let quiet = 0, i = 0; quiet < 4 && i < 100; i++) {
    await new Promise((r) => setTimeout(r, 150))
    const n = Number(await getText(new URL('/count', logUrl)))
    quiet = n === last ? quiet + 1 : 0
    last = n
  }
  return JSON.parse(await getText(new URL('/take', logUrl)))
}

const HEAVY_READ = 1000
const isRead = (sql) => /^\s*(select|with)\b/i.test(sql) && !/\b(insert\s+(or\s+\w+\s+)?into|update\s+\S+\s+set|delete\s+from)\b/i.test(sql)

/**
 * Statements, round trips, rows read (re-run on the same D1) and written, queue messages and R2 ops
 * of one step; D1 over every binding, with `byDb` (statements and round trips per binding).
 */
async function summarise(dbs, entries) {
  const statements = []
  let roundTrips = 0
  const byDb = {}
  const per = (db) => (byDb[db] ??= { statements: 0, roundTrips: 0 })
  for (const e of entries) {
    if (e.kind === 'd1') {
      roundTrips++
      per(e.db).roundTrips++
      per(e.db).statements++
      statements.push(e)
    } else if (e.kind === 'd1-batch') {
      roundTrips++
      per(e.db).roundTrips++
      per(e.db).statements += e.statements.length
      for (const s of e.statements) statements.push({ ...s, db: e.db, via: 'batch' })
    }
  }
  let rowsRead = 0
  let rowsWritten = 0
  let reads = 0
  let writes = 0
  let unmetered = 0
  const heavy = []
  for (const s of statements) {
    if (isRead(s.sql)) {
      reads++
      const d1 = dbs.byBinding[s.db]
      try {
        const r = await d1
          .prepare(s.sql)
          .bind(...(s.params ?? []))
          .all()
        s.rowsRead = r.meta.rows_read
        // Reads that grow with the school: keep the statement and its plan for the report.
        if (s.rowsRead > HEAVY_READ) {
          const plan = await d1
            .prepare(`EXPLAIN QUERY PLAN ${s.sql}`)
            .bind(...(s.params ?? []))
            .all()
          heavy.push({ sql: s.sql, params: s.params, rowsRead: s.rowsRead, plan: plan.results.map((x) => x.detail) })
        }
      } catch {
        s.rowsRead = null
      }
      rowsRead += s.rowsRead ?? 0
    } else {
      writes++
      // drizzle sends `returning` writes through raw(), which answers no meta
      if (s.rowsWritten == null) unmetered++
      rowsWritten += s.rowsWritten ?? 0
      rowsRead += s.rowsRead ?? 0
    }
  }
  const queue = {}
  for (const e of entries.filter((x) => x.kind === 'queue')) queue[e.queue] = (queue[e.queue] ?? 0) + e.messages
  const r2 = {}
  for (const e of entries.filter((x) => x.kind === 'r2')) r2[e.op] = (r2[e.op] ?? 0) + 1
  return {
    statements: statements.length,
    byDb,
    reads,
    writes,
    roundTrips,
    rowsRead,
    rowsWritten,
    unmetered,
    heavy,
    queue,
    queueMessages: Object.values(queue).reduce((a, b) => a + b, 0),
    queueBytes: entries.filter((x) => x.kind === 'queue').reduce((a, e) => a + (e.bytes ?? 0), 0),
    r2,
    r2Ops: Object.values(r2).reduce((a, b) => a + b, 0),
    sql: statements.map((s) => `${s.db} ${s.via}: ${s.sql.replace(/\s+/g, ' ').slice(0, 110)}${s.rowsRead != null ? ` [read ${s.rowsRead}]` : ''}${s.rowsWritten ? ` [written ${s.rowsWritten}]` : ''}`),
  }
}

/** The control plane's part of a step's D1 work (`byDb.DB`); the rest went to the shards. */
const controlShare = (row) => {
  const c = row.byDb?.DB ?? { statements: 0, roundTrips: 0 }
  return `${c.statements} statements / ${c.roundTrips} round trips`
}

async function step(ctx, name, base, path, opts = {}) {
  await takeLog(ctx.logUrl) // nothing left over from an earlier step
  const res = await send(base, path, opts)
  const entries = await takeLog(ctx.logUrl)
  const row = { name, method: opts.method ?? 'GET', path, status: res.status, ...(await summarise(ctx.dbs, entries)) }
  log(`${name}: ${res.status}, ${row.statements} statements in ${row.roundTrips} round trips (control plane ${controlShare(row)}), rows read ${row.rowsRead}, written ${row.rowsWritten}, queue ${row.queueMessages}, R2 ${row.r2Ops}`)
  return { row, res }
}

// ---------------------------------------------------------------------------------------------
// 4. a year of one school's activity
async function tenantTables(d1) {
  const names = (
    await d1.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations' ORDER BY name").all()
  ).results.map((r) => r.name)
  const out = []
  for (const name of names) {
    const cols = (await d1.prepare(`PRAGMA table_info(${name})`).all()).results
    if (cols.some((c) => c.name === 'tenant_id')) out.push({ name, cols })
  }
  return out
}

/** Copies of every row the real sale wrote (`after` rowids), `times` more, with fresh ids and unique values. */
async function cloneSaleRows(d1, tables, before, times) {
  const skip = new Set(['users', 'sessions', 'product_access', 'page_views', 'lecture_progress', 'login_attempts'])
  const keepUnique = new Set(['tenant_id', 'provider', 'type', 'kind', 'template', 'status', 'votable_type', 'commentable_type', 'event'])
  const cloned = {}
  for (const t of tables) {
    if (skip.has(t.name) || before[t.name] === undefined) continue
    const fresh = (await d1.prepare(`SELECT count(*) AS n FROM ${t.name} WHERE tenant_id = ? AND rowid > ?`).bind(TID, before[t.name]).first()).n
    if (fresh === 0) continue
    const unique = new Set(['id'])
    for (const idx of (await d1.prepare(`PRAGMA index_list(${t.name})`).all()).results.filter((i) => i.unique)) {
      for (const c of (await d1.prepare(`PRAGMA index_info(${idx.name})`).all()).results) if (!keepUnique.has(c.name)) unique.add(c.name)
    }
    const cols = t.cols.map((c) => c.name)
    const expr = cols.map((c) =>
      // Each copied sale gets a random student as buyer (else one student would own every sale).
      t.name === 'transactions' && c === 'user_id'
        ? `'bu-${BIG.n}-' || (abs(random()) % ${STUDENTS})`
        : unique.has(c) && t.cols.find((x) => x.name === c).type.toLowerCase() === 'text'
        ? `CASE WHEN ${c} IS NULL THEN NULL ELSE substr(lower(hex(randomblob(40))), 1, max(length(${c}), 12)) END`
        : c,
    )
    // Only the sale's own rows are copied (their rowid range is fixed before the first copy); in
    // chunks of 5,000 copies, each statement well under D1's 30 s query limit.
    const top = (await d1.prepare(`SELECT max(rowid) AS n FROM ${t.name}`).first()).n
    for (let done = 0; done < times; done += 5000) {
      const n = Math.min(5000, times - done)
      await d1
        .prepare(
          `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${n}) INSERT INTO ${t.name} (${cols.join(', ')}) SELECT ${expr.join(', ')} FROM k, ${
            t.name
          } WHERE tenant_id = ? AND rowid > ? AND rowid <= ?`,
        )
        .bind(TID, before[t.name], top)
        .run()
    }
    cloned[t.name] = fresh * times
  }
  return cloned
}

const BODY = 'Thanks, this lecture cleared up what I got wrong in the exercise. One question: does the same rule hold when the input is empty, or should we check for that first?'
const POST = `${BODY} I tried it on my own project and wrote down what changed; here is the longer version with the steps I took, the numbers before and after, and what I would do differently next time.`

async function seedActivity(d1) {
  const now = Date.now()
  const hour = Math.floor(now / 3_600_000)
  const rid = (n = 12) => `lower(hex(randomblob(${n})))`
  const statements = [
    // ~1/4 of each enrolment's 20 lectures opened, 2/3 of those completed
    `INSERT INTO lecture_progress (id, tenant_id, user_id, product_id, lecture_id, position_seconds, watched_seconds, note, starred, completed_at, last_viewed_at, created_at, updated_at)
     SELECT ${rid()}, a.tenant_id, a.user_id, a.product_id, l.id, 120, 300, '', 0, CASE WHEN abs(random()) % 3 = 0 THEN NULL ELSE ${now} END, ${now}, ${now}, ${now}
     FROM product_access a JOIN lectures l ON l.tenant_id = a.tenant_id AND l.product_id = a.product_id WHERE a.tenant_id = '${TID}' AND abs(random()) % 4 = 0`,
    // comments under lectures: one for every 20 opened lectures
    `INSERT INTO comments (id, tenant_id, commentable_type, commentable_id, product_id, user_id, author_name, by_admin, body, replies_count, up_votes_count, created_at, updated_at)
     SELECT ${rid()}, tenant_id, 'lecture', lecture_id, product_id, user_id, 'Student Name', 0, '${BODY}', 0, 0, ${now}, ${now} FROM lecture_progress WHERE tenant_id = '${TID}' AND abs(random()) % 20 = 0`,
    `INSERT INTO replies (id, tenant_id, comment_id, user_id, author_name, by_admin, body, up_votes_count, created_at, updated_at)
     SELECT ${rid()}, tenant_id, id, NULL, 'Bench School', 1, '${BODY.slice(0, 90)}', 0, ${now}, ${now} FROM comments WHERE tenant_id = '${TID}' AND abs(random()) % 2 = 0`,
    `INSERT OR IGNORE INTO votes (id, tenant_id, user_id, votable_type, votable_id, value, created_at, updated_at)
     SELECT ${rid()}, c.tenant_id, 'bu-${BIG.n}-' || (abs(random()) % ${STUDENTS}), 'comment', c.id, 1, ${now}, ${now} FROM comments c, (SELECT 1 UNION ALL SELECT 2) WHERE c.tenant_id = '${TID}'`,
    // one live session per student (30-day sliding expiry)
    `INSERT INTO sessions (id, tenant_id, user_id, secret_hash, user_agent, ip, created_at, last_verified_at, expires_at)
     SELECT ${rid()}, tenant_id, id, ${rid(32)}, 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36', '203.0.113.7', ${now}, ${now}, ${
      now + 30 * 86_400_000
    }
     FROM users WHERE tenant_id = '${TID}' AND role = 'student'`,
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 5000)
     INSERT INTO leads (id, tenant_id, email, name, source, created_at, fields) SELECT ${rid()}, '${TID}', 'lead' || i || '@example.com', 'Lead ' || i, 'home', ${now}, '{"email":"lead' || i || '@example.com","name":"Lead ' || i || '","consent":"on"}' FROM k`,
    `INSERT INTO community_topics (id, tenant_id, title, description, created_at, updated_at) VALUES ('cap-topic', '${TID}', 'Questions and wins', 'Ask, share, help.', ${now}, ${now})`,
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 2000)
     INSERT INTO community_posts (id, tenant_id, topic_id, user_id, author_name, by_admin, title, body, comments_count, created_at, updated_at)
     SELECT ${rid()}, '${TID}', 'cap-topic', 'bu-${BIG.n}-' || (i % ${STUDENTS}), 'Student ' || i, 0, 'How I finished module ' || (i % 20), '${POST}', 0, ${now} - i * 60000, ${now} FROM k`,
    // page-view counters: per course, day of the last year and kind, two distinct UTC hours
    `WITH RECURSIVE d(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM d WHERE i < 364)
     INSERT OR IGNORE INTO page_views (tenant_id, product_id, kind, hour, views)
     SELECT p.tenant_id, p.id, k.kind, ${hour} - d.i * 24 - h.x * 7 - (abs(random()) % 7), 1 + abs(random()) % 20
     FROM products p, d, (SELECT 'sales_page' AS kind UNION ALL SELECT 'checkout') k, (SELECT 0 AS x UNION ALL SELECT 1) h WHERE p.tenant_id = '${TID}'`,
  ]
  for (const s of statements) await d1.prepare(s).run()
}

// ---------------------------------------------------------------------------------------------
// 5. bytes per table: dbstat on the persisted D1 files (control plane + shards)
function findSqlites(dir) {
  const files = []
  const walk = (d) => {
    for (const f of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, f.name)
      if (f.isDirectory()) walk(p)
      // metadata.sqlite is miniflare's own bookkeeping, not a database
      else if (f.name.endsWith('.sqlite') && f.name !== 'metadata.sqlite') files.push(p)
    }
  }
  walk(dir)
  return files
}

/**
 * tableBytes of every file, merged by table: a table counts where it has rows (the school's shard;
 * tenants and domains in the control plane). The other databases' empty copies of a table (the
 * second shard, the control plane's login_attempts) are left out, as one school would not have them.
 */
function allTableBytes(files) {
  const tables = {}
  let fileBytes = 0
  let pageSize
  for (const file of files) {
    const one = tableBytes(file)
    fileBytes += one.fileBytes
    pageSize ??= one.pageSize
    for (const [t, v] of Object.entries(one.tables)) {
      const seen = tables[t]
      if (!seen || seen.rows === 0) tables[t] = v
      else if (v.rows > 0) for (const k of Object.keys(v)) seen[k] += v[k]
    }
  }
  return { tables, fileBytes, pageSize, files: files.length }
}

function tableBytes(file) {
  // pages = what the file holds (a one-row table still takes a page per b-tree); used = pages less
  // their free space. Extrapolations take pages for tables of 1,000 rows or more (their free space
  // scales with them) and used bytes for smaller ones (whose pages are mostly empty).
  const sql = `SELECT m.tbl_name AS t, SUM(s.pgsize) AS bytes, SUM(s.pgsize - s.unused) AS used, SUM(CASE WHEN m.type = 'table' THEN s.pgsize ELSE 0 END) AS data, SUM(CASE WHEN m.type = 'index' THEN s.pgsize ELSE 0 END) AS idx
    FROM dbstat s JOIN sqlite_master m ON m.name = s.name GROUP BY m.tbl_name ORDER BY bytes DESC;`
  const rows = JSON.parse(execFileSync('sqlite3', ['-json', '-readonly', file, sql], { encoding: 'utf8' }) || '[]')
  const pageSize = Number(execFileSync('sqlite3', ['-readonly', file, 'PRAGMA page_size;'], { encoding: 'utf8' }).trim())
  const pages = Number(execFileSync('sqlite3', ['-readonly', file, 'PRAGMA page_count;'], { encoding: 'utf8' }).trim())
  const out = {}
  for (const r of rows) {
    if (r.t.startsWith('sqlite_') || r.t.startsWith('_cf_') || r.t === 'd1_migrations') continue
    const n = Number(execFileSync('sqlite3', ['-readonly', file, `SELECT count(*) FROM "${r.t}";`], { encoding: 'utf8' }).trim())
    out[r.t] = { rows: n, bytes: r.bytes, used: r.used, scaled: n >= 1000 ? r.bytes : r.used, data: r.data, index: r.idx }
  }
  return { tables: out, fileBytes: pageSize * pages, pageSize }
}

// ---------------------------------------------------------------------------------------------
// 6. a real sale, through the app
async function sale(ctx, cookie) {
  const buyer = { Cookie: cookie }
  const form = { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: `http://${HOST}` }
  const rows = []
  const page = await step(ctx, 'checkout page (signed in)', ctx.app, '/course-1/checkout', { headers: buyer })
  rows.push(page.row)
  const placed = await step(ctx, 'place the order (POST checkout → provider)', ctx.app, '/course-1/checkout', { method: 'POST', headers: { ...buyer, ...form }, body: 'terms=on&waiver=on' })
  rows.push(placed.row)
  const location = placed.res.headers.location ?? ''
  const ref = /\/pay\/test\/(tp_[a-z0-9]+)/.exec(location)?.[1]
  if (placed.res.status !== 303 || !ref) throw new Error(`checkout answered ${placed.res.status} → ${location}: ${placed.res.body.slice(0, 300)}`)
  const body = JSON.stringify({ id: `evt_${randomBytes(10).toString('hex')}`, payment: ref, status: 'succeeded' })
  const t = Math.floor(Date.now() / 1000)
  const signature = `t=${t},v1=${createHmac('sha256', TEST_SECRET).update(`${t}.${body}`).digest('hex')}`
  const notified = await step(ctx, 'provider notification → settlement (+ waitUntil: events, receipt, staff notice)', ctx.app, '/payments/test/test/notify', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Test-Payments-Signature': signature },
    body,
  })
  rows.push(notified.row)
  if (notified.res.status !== 200) throw new Error(`notify answered ${notified.res.status}: ${notified.res.body.slice(0, 300)}`)
  const tx = await ctx.d1.prepare('SELECT hash, status FROM transactions WHERE tenant_id = ? AND provider_ref = ?').bind(TID, ref).first()
  if (tx?.status !== 'completed') throw new Error(`the sale did not complete: ${JSON.stringify(tx)}`)
  rows.push((await step(ctx, "buyer's return from the provider", ctx.app, `/transaction/${tx.hash}/pending`, { headers: buyer })).row)
  rows.push((await step(ctx, 'pending page (already paid)', ctx.app, `/transaction/${tx.hash}`, { headers: buyer })).row)
  return rows
}

// ---------------------------------------------------------------------------------------------
// 7. report
const n0 = (x) => Math.round(x).toLocaleString('en')
const mb = (b) => (b / 1e6).toFixed(b < 1e7 ? 2 : 1)
const gb = (b) => (b / 1e9).toFixed(b < 1e10 ? 2 : 1)

function render(res) {
  const o = []
  o.push(`### Run of ${res.date}`)
  o.push('')
  o.push(`- Measured: ${res.source}; \`node bench/capacity.mjs${res.args ? ` ${res.args}` : ''}\`.`)
  o.push(`- Machine: ${res.machine.nproc} vCPU, ${res.machine.cpu}; Node ${res.machine.node}; miniflare ${res.machine.miniflare}; sqlite3 ${res.machine.sqlite}; ${res.machine.load}.`)
  o.push(
    `- Data: the storefront bench's school (${n0(STUDENTS)} students, 200 courses × 20 lectures, 2 enrolments per student), ${n0(
      res.sales,
    )} sales (the real sale's rows cloned), a year of activity; seeded in ${res.seedSeconds} s. ${
      res.bytes.files > 1 ? `D1 files (control plane + ${res.bytes.files - 1} shards) ${mb(res.bytes.fileBytes)} MB together` : `D1 file ${mb(res.bytes.fileBytes)} MB`
    } (page size ${res.bytes.pageSize} B).`,
  )
  o.push('')
  o.push('#### Rows and bytes per table, one school (table + its indexes, `dbstat`)')
  o.push('')
  o.push('| table | class | rows | bytes (pages) | of which indexes | bytes used | bytes/row extrapolated |')
  o.push('|---|---|---|---|---|---|---|')
  for (const [t, v] of Object.entries(res.bytes.tables).sort((a, b) => b[1].bytes - a[1].bytes)) {
    if (v.rows === 0) continue
    o.push(`| ${t} | ${classOf(t)} | ${n0(v.rows)} | ${n0(v.bytes)} | ${n0(v.index)} | ${n0(v.used)} | ${n0(v.scaled / v.rows)} |`)
  }
  const empty = Object.entries(res.bytes.tables)
    .filter(([, v]) => v.rows === 0)
    .map(([t]) => t)
  o.push('')
  o.push(`Empty here (schema pages only): ${empty.join(', ')}.`)
  o.push('')
  const m = res.model
  o.push(
    `Per school (pages for tables of 1,000+ rows, used bytes below): content ${mb(m.contentPerSchool)} MB at 200 courses (${n0(m.contentPerCourse)} B per course); per student ${n0(
      m.perStudent,
    )} B (all student-linked tables ÷ ${n0(STUDENTS)}); fixed per school ${n0(m.fixedPerSchool)} B.`,
  )
  o.push('')
  o.push('#### D1, Queues and R2 per request (app worker, counted at the bindings)')
  o.push('')
  // Statements and round trips count every D1 binding (control plane + shards); the next column is
  // the control plane's part of them (runs before the split have no split: –).
  o.push('| request | status | D1 statements | round trips | of which control plane (statements / round trips) | rows read | rows written | queue messages | R2 ops |')
  o.push('|---|---|---|---|---|---|---|---|---|')
  const control = (r) => (r.byDb ? `${r.byDb.DB?.statements ?? 0} / ${r.byDb.DB?.roundTrips ?? 0}` : '–')
  for (const r of [...res.pages, ...res.sale])
    o.push(
      `| ${r.name} (\`${r.method} ${r.path.replace(/[a-z2-7]{32}/g, '{hash}')}\`) | ${r.status} | ${r.statements} | ${r.roundTrips} | ${control(r)} | ${n0(r.rowsRead)} | ${n0(r.rowsWritten)}${
        r.unmetered ? ` + ${r.unmetered} unmetered write${r.unmetered > 1 ? 's' : ''}` : ''
      } | ${
        r.queueMessages
          ? Object.entries(r.queue)
              .map(([q, k]) => `${k} ${q}`)
              .join(', ')
          : 0
      } | ${r.r2Ops} |`,
    )
  const s = res.saleTotal
  o.push(
    `| **one sale, all five steps** | | **${s.statements}** | **${s.roundTrips}** | **${control(s)}** | **${n0(s.rowsRead)}** | **${n0(s.rowsWritten)}**${s.unmetered ? ` + ${s.unmetered} unmetered` : ''} | **${
      s.queueMessages
    }** | **${s.r2Ops}** |`,
  )
  o.push('')
  const heavy = [...res.pages, ...res.sale].flatMap((r) => r.heavy.map((h) => ({ ...h, page: r.name })))
  if (heavy.length) {
    o.push(`Reads of more than ${n0(HEAVY_READ)} rows (they grow with the school, not with the viewer):`)
    o.push('')
    o.push('| request | statement (start) | rows read | `EXPLAIN QUERY PLAN` |')
    o.push('|---|---|---|---|')
    for (const h of heavy) o.push(`| ${h.page} | \`${h.sql.replace(/\s+/g, ' ').slice(0, 90).replace(/\|/g, '\\|')}…\` | ${n0(h.rowsRead)} | \`${h.plan.join(' / ').replace(/\|/g, '\\|')}\` |`)
    o.push('')
  }
  o.push(plan(res))
  o.push('')
  o.push('<details><summary>Statements per request</summary>')
  o.push('')
  for (const r of [...res.pages, ...res.sale]) {
    o.push(`**${r.name}** (${r.statements}):`)
    o.push('')
    o.push('```')
    for (const l of r.sql) o.push(l)
    o.push('```')
    o.push('')
  }
  o.push('</details>')
  return o.join('\n')
}

// Content rows grow with a school's catalogue; student rows with its students; fixed ones per school.
const CONTENT = new Set(['products', 'product_prices', 'product_price_history', 'sections', 'lectures', 'lecture_components', 'reviews', 'page_views', 'community_topics'])
const FIXED = new Set(['tenants', 'domains', 'school_settings'])
const classOf = (t) => (CONTENT.has(t) ? 'content' : FIXED.has(t) ? 'school' : 'student')

function model(tables) {
  let content = 0,
    student = 0,
    fixed = 0
  for (const [t, v] of Object.entries(tables)) {
    if (v.rows === 0) continue
    if (CONTENT.has(t)) content += v.scaled
    else if (FIXED.has(t)) fixed += v.scaled
    else student += v.scaled
  }
  return { contentPerSchool: content, contentPerCourse: content / 200, perStudent: student / STUDENTS, fixedPerSchool: fixed }
}

// ---------------------------------------------------------------------------------------------
// 8. the plan: measured per-school and per-request numbers × stated assumptions × list prices
// List prices (USD), read 2026-11-27 from the stored copies of the vendors' pages named here.
const PRICES = {
  workers: { base: 5, requestsIncluded: 10e6, perMillionRequests: 0.3, cpuMsIncluded: 30e6, perMillionCpuMs: 0.02, source: 'developers.cloudflare.com/workers/platform/pricing' },
  d1: { readIncluded: 25e9, perMillionRead: 0.001, writtenIncluded: 50e6, perMillionWritten: 1.0, storageIncludedGB: 5, perGBMonth: 0.75, source: 'developers.cloudflare.com/d1/platform/pricing' },
  queues: { opsIncluded: 1e6, perMillionOps: 0.4, opsPerMessage: 3, source: 'developers.cloudflare.com/queues/pricing' },
  r2: { perGBMonth: 0.015, classAPerMillion: 4.5, classBPerMillion: 0.36, freeGB: 10, freeA: 1e6, freeB: 10e6, source: 'developers.cloudflare.com/r2/pricing' },
  bunny: { volumeFirst500TB: 0.005, standardEuNa: 0.01, source: 'docs.bunny.net/cdn/pricing' },
}
// Assumptions (not measured): what an average enrolled student does in a month, and the catalogue.
const ASSUME = {
  students: 10_000_000,
  coursesPerSchool: 20, // the bench school has 200; content bytes scale per course
  fill: 0.6, // of D1's 10 GB per database
  storefrontViews: 20, // anonymous views of the school's pages per student and month (visitors who buy or not)
  pageCacheHitShare: 0.9,
  panelViews: 4,
  signedInCourseViews: 4,
  lecturePages: 10,
  watchHours: 1, // video lectures played through Bunny's player
  heartbeatsPerHour: 3600 / 15, // app/player/components/player-video.tsx HEARTBEAT_SECONDS
  heartbeatRowsWritten: 2, // the upsert's row + lecture_progress_user_idx (last_viewed_at): D1 counts index writes
  salesPerMonth: 1 / 6, // two enrolments a year, as seeded
  mediaRequestsPerStorefrontView: 1, // images through the media worker: a D1 read + an R2 get each (no edge cache)
  // Isolate CPU per request, from docs/performance.md's profiles (hit 0.05 ms, render 1.6, signed-in 2.4); the rest assumed
  cpuMs: { hit: 0.05, render: 1.6, signedIn: 2.4, panel: 3, lecture: 3, heartbeat: 1, saleStep: 3, media: 0.5, consumer: 2 },
  bitrateMbps: 2.5, // an average 720p HLS rendition (assumed; the library's encoding settings decide)
  peakFactor: 10, // the busiest hour against the month's average
  queryMs: 1, // D1 executes one query at a time per database: ~1,000 queries/s at 1 ms (D1 limits FAQ)
  busyTarget: 0.5, // keep a shard at most half busy at the peak
}

function plan(res) {
  const m = res.model
  const by = (needle) => [...res.pages, ...res.sale].find((r) => r.name.startsWith(needle))
  const hit = by('course page, anonymous, as deployed: next view')
  const renderCourse = by('course page, anonymous, as deployed: first view')
  const renderHome = by('school home, anonymous, as deployed: first view')
  const signedIn = by('course page, signed-in')
  const panel = by('student panel')
  const lecture = by('player: lecture page')
  const beat = by('player: watch heartbeat')
  const sale = res.saleTotal
  const o = []
  const sizes = [1_000, 10_000, 100_000]
  const A = ASSUME
  o.push(`#### Extrapolation and monthly bill (assumptions: \`ASSUME\` in bench/capacity.mjs)`)
  o.push('')
  o.push(`${n0(A.students)} students in every column; ${A.coursesPerSchool} courses per school on average; a student-year of activity as seeded; fill target ${A.fill * 100} % of D1's 10 GB.`)
  o.push('')
  const rows = sizes.map((schools) => {
    const perSchool = A.students / schools
    const storage = schools * (m.fixedPerSchool + A.coursesPerSchool * m.contentPerCourse) + A.students * m.perStudent
    const shards = Math.ceil(storage / (A.fill * 10e9))
    // Reads that grow with the school (panel: the school's transactions and progress; home: its catalogue).
    // The panel's heavy reads, by what they scan: the lecture-progress summary reads the school's
    // lectures (4,000 here) and, per reachable-course subquery, all its enrolments; a per-buyer
    // transactions read counts the student's own sales (2 a year; runs before the clone fix gave every
    // copied sale to the measured buyer).
    let panelRows = panel.rowsRead
    for (const h of panel.heavy ?? []) {
      panelRows -= h.rowsRead
      const lecturesHere = 200 * 20
      if (/^SEARCH lectures /.test(h.plan[0] ?? '')) panelRows += lecturesHere * (A.coursesPerSchool / 200) + (h.rowsRead - lecturesHere) * (perSchool / STUDENTS)
      else if (/^SEARCH transactions USING INDEX transactions_user_idx/.test(h.plan[0] ?? '') && h.rowsRead > 100) panelRows += 2
      else panelRows += h.rowsRead * (perSchool / STUDENTS)
    }
    const homeRows = renderHome.rowsRead * (A.coursesPerSchool / 200)
    const S = A.students
    const renders = A.storefrontViews * (1 - A.pageCacheHitShare)
    const hits = A.storefrontViews * A.pageCacheHitShare
    const beats = A.watchHours * A.heartbeatsPerHour
    const req = S * (A.storefrontViews + A.panelViews + A.signedInCourseViews + A.lecturePages + beats + A.salesPerMonth * res.sale.length + A.storefrontViews * A.mediaRequestsPerStorefrontView)
    const cpu =
      S *
      (hits * A.cpuMs.hit +
        renders * A.cpuMs.render +
        A.signedInCourseViews * A.cpuMs.signedIn +
        A.panelViews * A.cpuMs.panel +
        A.lecturePages * A.cpuMs.lecture +
        beats * A.cpuMs.heartbeat +
        A.salesPerMonth * res.sale.length * A.cpuMs.saleStep +
        A.storefrontViews * A.mediaRequestsPerStorefrontView * A.cpuMs.media +
        A.salesPerMonth * sale.queueMessages * A.cpuMs.consumer)
    const statements =
      S *
      (hits * hit.statements +
        (renders * (renderCourse.statements + renderHome.statements)) / 2 +
        A.signedInCourseViews * signedIn.statements +
        A.panelViews * panel.statements +
        A.lecturePages * lecture.statements +
        beats * beat.statements +
        A.salesPerMonth * sale.statements +
        A.storefrontViews * A.mediaRequestsPerStorefrontView)
    const rowsRead =
      S *
      (hits * hit.rowsRead +
        (renders * (renderCourse.rowsRead + homeRows)) / 2 +
        A.signedInCourseViews * signedIn.rowsRead +
        A.panelViews * panelRows +
        A.lecturePages * lecture.rowsRead +
        beats * beat.rowsRead +
        A.salesPerMonth * sale.rowsRead +
        A.storefrontViews * A.mediaRequestsPerStorefrontView)
    const rowsWritten = S * (A.lecturePages * lecture.rowsWritten + beats * A.heartbeatRowsWritten + A.salesPerMonth * sale.rowsWritten)
    const messages = S * A.salesPerMonth * sale.queueMessages
    const r2B = S * A.storefrontViews * A.mediaRequestsPerStorefrontView
    const watchGB = S * A.watchHours * ((A.bitrateMbps * 3600) / 8 / 1000)
    const P = PRICES
    const over = (x, inc, per) => (Math.max(0, x - inc) / 1e6) * per
    const bill = {
      workers: P.workers.base + over(req, P.workers.requestsIncluded, P.workers.perMillionRequests) + over(cpu, P.workers.cpuMsIncluded, P.workers.perMillionCpuMs),
      d1Read: over(rowsRead, P.d1.readIncluded, P.d1.perMillionRead),
      d1Written: over(rowsWritten, P.d1.writtenIncluded, P.d1.perMillionWritten),
      d1Storage: Math.max(0, storage / 1e9 - P.d1.storageIncludedGB) * P.d1.perGBMonth,
      queues: over(messages * P.queues.opsPerMessage, P.queues.opsIncluded, P.queues.perMillionOps),
      r2: over(r2B, P.r2.freeB, P.r2.classBPerMillion),
      bunny: watchGB * P.bunny.volumeFirst500TB,
    }
    // Busiest shard: statements per second at an even spread over the month, and a 10× peak hour.
    const qps = statements / shards / (30 * 86400)
    const peakQps = (statements / (30 * 86400)) * A.peakFactor
    const throughputShards = Math.ceil(peakQps / ((1000 / A.queryMs) * A.busyTarget))
    return { schools, perSchool, storage, shards, peakQps, throughputShards, panelRows, req, cpu, statements, rowsRead, rowsWritten, messages, r2B, watchGB, bill, qps }
  })
  const col = (f) => rows.map(f).join(' | ')
  // Per table: content rows scale with schools × courses, school rows with schools, student rows with students.
  const scale = (t, schools) => (CONTENT.has(t) ? schools * (A.coursesPerSchool / 200) : FIXED.has(t) ? schools : A.students / STUDENTS)
  const big = (x) => (x >= 1e9 ? `${(x / 1e9).toFixed(1)} B` : x >= 1e6 ? `${(x / 1e6).toFixed(1)} M` : n0(x))
  o.push(`| table | ${col((r) => `${n0(r.schools)} schools: rows / bytes`)} |`)
  o.push(`|---|${rows.map(() => '---').join('|')}|`)
  for (const [t, v] of Object.entries(res.bytes.tables).sort((a, b) => b[1].bytes - a[1].bytes)) {
    if (v.rows === 0) continue
    o.push(`| ${t} | ${col((r) => `${big(v.rows * scale(t, r.schools))} / ${gb(v.scaled * scale(t, r.schools))} GB`)} |`)
  }
  o.push(`| **all tables** | ${col((r) => `**${gb(r.storage)} GB**`)} |`)
  o.push('')
  const usd = (x) => `$${x < 100 ? x.toFixed(2) : n0(x)}`
  o.push(`| | ${col((r) => `${n0(r.schools)} schools`)} |`)
  o.push(`|---|${rows.map(() => '---').join('|')}|`)
  o.push(`| students per school | ${col((r) => n0(r.perSchool))} |`)
  o.push(`| D1 data after a year | ${col((r) => `${gb(r.storage)} GB`)} |`)
  o.push(`| shards at ${A.fill * 100} % of 10 GB | ${col((r) => r.shards)} |`)
  o.push(`| D1 statements/s at the peak hour (all shards) | ${col((r) => n0(r.peakQps))} |`)
  o.push(`| shards for that peak (${n0((1000 / A.queryMs) * A.busyTarget)} statements/s each: ${A.queryMs} ms a query, ${A.busyTarget * 100} % busy) | ${col((r) => r.throughputShards)} |`)
  o.push(`| Worker requests / month | ${col((r) => `${(r.req / 1e9).toFixed(2)} B`)} |`)
  o.push(`| Worker CPU / month | ${col((r) => `${(r.cpu / 1e9).toFixed(2)} B ms`)} |`)
  o.push(`| D1 statements / month | ${col((r) => `${(r.statements / 1e9).toFixed(2)} B`)} |`)
  o.push(`| D1 rows read / month (of which a panel view reads) | ${col((r) => `${(r.rowsRead / 1e9).toFixed(0)} B (${n0(r.panelRows)})`)} |`)
  o.push(`| D1 rows written / month | ${col((r) => `${(r.rowsWritten / 1e9).toFixed(2)} B`)} |`)
  o.push(`| Queues messages / month | ${col((r) => `${(r.messages / 1e6).toFixed(1)} M`)} |`)
  o.push(`| R2 Class B (media gets) / month | ${col((r) => `${(r.r2B / 1e6).toFixed(0)} M`)} |`)
  o.push(`| Bunny delivery / month | ${col((r) => `${(r.watchGB / 1e6).toFixed(1)} PB`)} |`)
  for (const [k, label] of [
    ['workers', 'Workers (incl. $5 base)'],
    ['d1Read', 'D1 rows read'],
    ['d1Written', 'D1 rows written'],
    ['d1Storage', 'D1 storage'],
    ['queues', 'Queues'],
    ['r2', 'R2 operations'],
  ])
    o.push(`| **${label}** | ${col((r) => usd(r.bill[k]))} |`)
  o.push(
    `| **Cloudflare total / month** | ${col(
      (r) =>
        `**${usd(
          Object.entries(r.bill)
            .filter(([k]) => k !== 'bunny')
            .reduce((a, [, v]) => a + v, 0),
        )}**`,
    )} |`,
  )
  o.push(`| Bunny CDN at the volume tier's first-500 TB price ($${PRICES.bunny.volumeFirst500TB}/GB) | ${col((r) => usd(r.bill.bunny))} |`)
  o.push('')
  o.push(
    `Per watch hour: ${n0(A.heartbeatsPerHour)} heartbeat requests = ${n0(A.heartbeatsPerHour * beat.statements)} D1 statements, ${n0(A.heartbeatsPerHour * beat.rowsRead)} rows read, ≈ ${n0(
      A.heartbeatsPerHour * A.heartbeatRowsWritten,
    )} rows written; 60 delivered minutes = ${((A.bitrateMbps * 3600) / 8 / 1000).toFixed(2)} GB at ${A.bitrateMbps} Mbit/s.`,
  )
  return o.join('\n')
}

const START = '<!-- bench:capacity:start -->'
const END = '<!-- bench:capacity:end -->'
function writeDoc(md) {
  const file = join(root, 'docs', 'capacity.md')
  const current = readFileSync(file, 'utf8')
  if (!current.includes(START)) throw new Error(`docs/capacity.md has no ${START} … ${END} block`)
  writeFileSync(
    file,
    current.replace(new RegExp(`${START}[\\s\\S]*?${END}`), () => `${START}\n${md}\n${END}`),
  )
  log('wrote docs/capacity.md')
}

// ---------------------------------------------------------------------------------------------
async function main() {
  if (flag('--render-only')) {
    // The last run's raw results, rendered again (e.g. after changing ASSUME or PRICES): no workerd.
    const saved = JSON.parse(readFileSync(join(work, 'results.json'), 'utf8'))
    // The run's D1 files stay until the next run: read their table sizes again (same data).
    const files = existsSync(join(work, 'state', 'd1')) ? findSqlites(join(work, 'state', 'd1')) : []
    if (files.length) {
      saved.bytes = allTableBytes(files)
      saved.model = model(saved.bytes.tables)
    }
    const md = render(saved)
    console.log(md)
    if (flag('--write')) writeDoc(md)
    return
  }
  const t0 = Date.now()
  const { out, source } = copyBuild()
  mkdirSync(work, { recursive: true })
  const loadBefore = loadavg()[0].toFixed(2)
  const ctx = await startWorkerd(out)
  let pages, saleRows, seedSeconds
  try {
    let t = Date.now()
    await migrateAll(ctx.dbs)
    const big = await seedBig(ctx.dbs)
    // The school's own tables, its sale and its activity are in its shard.
    const d1 = (ctx.d1 = ctx.dbs.shards[big.shard])
    log(`seeded the storefront school (${big.rows} rows; control plane + shard ${big.shard})`)
    const tables = await tenantTables(d1)
    const before = {}
    for (const tb of tables) before[tb.name] = (await d1.prepare(`SELECT coalesce(max(rowid), 0) AS n FROM ${tb.name}`).first()).n
    // Student bu-0-99 (the storefront bench's session) has courses 100 and 107, so course-1 is a new purchase.
    saleRows = await sale(ctx, big.cookie)
    const cloned = await cloneSaleRows(d1, tables, before, SALES - 1)
    log(`cloned the sale's rows: ${JSON.stringify(cloned)}`)
    await seedActivity(d1)
    seedSeconds = ((Date.now() - t) / 1000).toFixed(1)
    log(`seeded a year of activity in ${seedSeconds} s`)

    const course = `/course-${COURSE_INDEX + 1}`
    const signedIn = { headers: { Cookie: big.cookie } }
    const lecture = `bl-${BIG.n}-${COURSE_INDEX}-0-0`
    pages = []
    const add = async (...a) => pages.push((await step(ctx, ...a)).row)
    await add('course page, anonymous, first view (no caches: `PAGE_CACHE=off`, cold tenant cache)', ctx.appCold, course)
    await add('course page, anonymous, no caches (`PAGE_CACHE=off`), warm tenant cache', ctx.appCold, course)
    await add('school home, anonymous, no caches (`PAGE_CACHE=off`)', ctx.appCold, '/')
    await add('course page, anonymous, as deployed: first view (renders, stores the page)', ctx.app, course)
    await add('course page, anonymous, as deployed: next view (page cache hit)', ctx.app, course)
    await add('school home, anonymous, as deployed: first view', ctx.app, '/')
    await add('school home, anonymous, as deployed: next view (page cache hit)', ctx.app, '/')
    await add('course page, signed-in student with access', ctx.app, course, signedIn)
    await add('student panel `/panel`', ctx.app, '/panel', signedIn)
    await add('player: lecture page', ctx.app, `${course}/watch/${lecture}`, signedIn)
    await add('player: watch heartbeat (one every 15 s of playback)', ctx.app, `/lecture/${lecture}/watch`, {
      method: 'POST',
      headers: { ...signedIn.headers, 'Content-Type': 'application/json', Accept: 'application/json', 'Sec-Fetch-Site': 'same-origin' },
      body: JSON.stringify({ position: 30, watched: 30 }),
    })
  } finally {
    await ctx.mf.dispose()
  }
  const loadAfter = loadavg()[0].toFixed(2)
  const bytes = allTableBytes(findSqlites(join(work, 'state', 'd1')))
  const saleTotal = saleRows.reduce(
    (a, r) => ({
      byDb: Object.fromEntries(
        [...new Set([...Object.keys(a.byDb), ...Object.keys(r.byDb)])].map((db) => [
          db,
          { statements: (a.byDb[db]?.statements ?? 0) + (r.byDb[db]?.statements ?? 0), roundTrips: (a.byDb[db]?.roundTrips ?? 0) + (r.byDb[db]?.roundTrips ?? 0) },
        ]),
      ),
      statements: a.statements + r.statements,
      roundTrips: a.roundTrips + r.roundTrips,
      rowsRead: a.rowsRead + r.rowsRead,
      rowsWritten: a.rowsWritten + r.rowsWritten,
      unmetered: a.unmetered + r.unmetered,
      queueMessages: a.queueMessages + r.queueMessages,
      r2Ops: a.r2Ops + r.r2Ops,
    }),
    { byDb: {}, statements: 0, roundTrips: 0, rowsRead: 0, rowsWritten: 0, unmetered: 0, queueMessages: 0, r2Ops: 0 },
  )
  const results = {
    date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
    source,
    args: argv.filter((a) => a !== '--write').join(' '),
    sales: SALES,
    seedSeconds,
    machine: {
      nproc: cpus().length,
      cpu: cpus()[0]?.model ?? 'unknown',
      node: process.version,
      miniflare: JSON.parse(readFileSync(join(root, 'node_modules', 'miniflare', 'package.json'), 'utf8')).version,
      sqlite: execFileSync('sqlite3', ['--version'], { encoding: 'utf8' }).split(' ')[0],
      load: `1-minute load average ${loadBefore} before / ${loadAfter} after`,
    },
    bytes,
    model: model(bytes.tables),
    pages,
    sale: saleRows,
    saleTotal,
  }
  writeFileSync(join(work, 'results.json'), JSON.stringify(results, null, 2))
  const md = render(results)
  console.log(`\n${md}\n`)
  if (flag('--write')) writeDoc(md)
  log(`done in ${Math.round((Date.now() - t0) / 1000)} s (raw results: ${join(work, 'results.json')})`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
