#!/usr/bin/env node
// Community feed benchmark (issue 22): "a topic with 10,000 posts pages in constant time". The
// deploy bundle (wrangler deploy --dry-run) on ONE workerd process (miniflare), a school with two
// public topics of 10,000 posts each (interleaved in time, so the index has to pick the topic), a
// signed-in student; autocannon on the topic's first page, a middle page (cursor at post ~5,000)
// and the last page (cursor near the oldest post), as HTML (/community/topics/{id}?before=…) and
// as JSON (POST /json/community/topics/{id}?cursor=…); then EXPLAIN QUERY PLAN of the page query
// exactly as drizzle builds it (listTopicPosts run against the school's shard with a query logger).
//
//   node bench/community-feed.mjs [--seconds 10] [--connections 16] [--warmup 3] [--skip-build] [--write]
//
// Build: the working tree (tracked and untracked files, not ignored ones) is copied into
// $TMPDIR/coursefront-bench/community/src and built there (`npm run build` + wrangler dry-run), so
// nothing is written into the repo. --skip-build copies the repo's last `build/` instead (under the
// shared build lock) and only bundles. --write replaces the marked block in docs/benchmarks.md;
// without it the block is printed only.
// Schema (ADR 033): the school's tenant and subdomain rows in the control plane `DB` (with
// `tenants.shard`), its settings, users, topics, posts and session in shard 0; the page queries are
// explained on that shard.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { createHash, randomBytes } from 'node:crypto'
import { appWorkerOptions, ensureBenchDeps, migrate, openDbs, probe, work as benchWork } from './storefront.mjs'

const benchDir = import.meta.dirname
const root = resolve(benchDir, '..')
const work = join(benchWork, 'community')
const argv = process.argv.slice(2)
const flag = (name) => argv.includes(name)
const num = (name, fallback) => {
  const i = argv.indexOf(name)
  return i === -1 ? fallback : Number(argv[i + 1])
}
const SECONDS = num('--seconds', 10)
const CONNECTIONS = num('--connections', 16)
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
    // node_modules: linked below (in a worktree it is itself an untracked symlink, listed here)
    .filter((f) => f && !f.startsWith('bench/') && f !== 'node_modules')
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
const POSTS = 10_000
const MINUTE = 60_000

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

const TID = 'ct-0'
const SHARD = 0
const SLUG = 'community-bench'
const TOPIC = 'topic-a'
const OTHER = 'topic-b'
const postId = (topic, i) => `${topic === TOPIC ? 'pa' : 'pb'}-${String(i).padStart(5, '0')}`
const BODY = 'Sharing what I built this week: a small project that uses what the last module covered. Feedback welcome, especially on the structure and the naming. '
// One post in IMAGE_EVERY carries a picture (the topic page's gallery preview reads the newest ones).
const IMAGE_EVERY = 10
// Post i of a topic (0 = oldest) was created at T0 + i minutes; topic B's posts sit 30 s after topic A's.
const T0 = Date.UTC(2026, 0, 1)
const createdAt = (topic, i) => T0 + i * MINUTE + (topic === TOPIC ? 0 : 30_000)

/** `dbs` from openDbs: the school's data into its shard first, the control plane's rows last (as the app creates a school). */
async function seed(dbs) {
  const now = Date.now()
  const db = dbs.shards[SHARD]
  let rows = 0
  rows += await insertRows(db, 'school_settings', ['tenant_id', 'author_name', 'bio', 'created_at', 'updated_at'], [[TID, 'Bench Author', 'Teaches things.', now, now]])
  const users = [['cu-owner', TID, `owner@${SLUG}.test`, 'Owner', 'x', 'owner', now, now]]
  for (let i = 0; i < 50; i++) users.push([`cu-${i}`, TID, `student${i}@${SLUG}.test`, `Student ${i}`, 'x', 'student', now, now])
  rows += await insertRows(db, 'users', ['id', 'tenant_id', 'email', 'name', 'password_hash', 'role', 'created_at', 'updated_at'], users)
  // Topic A is pinned to an old post (the page query then carries `id <> pinned`, as in a real topic).
  const pinned = postId(TOPIC, 42)
  rows += await insertRows(
    db,
    'community_topics',
    ['id', 'tenant_id', 'title', 'description', 'access', 'position', 'pinned_post_id', 'created_at', 'updated_at'],
    [
      [TOPIC, TID, 'General discussion', 'Questions, projects and news.', 'public', 0, pinned, T0, now],
      [OTHER, TID, 'Show and tell', 'What you built.', 'public', 1, null, T0, now],
    ],
  )
  const cols = ['id', 'tenant_id', 'topic_id', 'user_id', 'author_name', 'by_admin', 'title', 'body', 'image_path', 'comments_count', 'created_at', 'updated_at']
  for (const topic of [TOPIC, OTHER]) {
    const posts = []
    for (let i = 0; i < POSTS; i++) {
      const at = createdAt(topic, i)
      posts.push([
        postId(topic, i),
        TID,
        topic,
        `cu-${i % 50}`,
        `Student ${i % 50}`,
        0,
        `Post ${i + 1} of ${topic}`,
        BODY,
        i % IMAGE_EVERY === 0 ? `${TID}/community/${postId(topic, i)}.jpg` : null,
        0,
        at,
        at,
      ])
    }
    rows += await insertRows(db, 'community_posts', cols, posts)
  }
  // A signed-in student (login verification is off for the school; the session is verified anyway).
  const id = token(32)
  const secret = token(32)
  rows += await insertRows(
    db,
    'sessions',
    ['id', 'tenant_id', 'user_id', 'secret_hash', 'created_at', 'last_verified_at', 'expires_at', 'login_verified_at'],
    [[id, TID, 'cu-7', createHash('sha256').update(secret).digest('hex'), now, now, now + 30 * DAY, now]],
  )
  rows += await insertRows(
    dbs.control,
    'tenants',
    ['id', 'slug', 'name', 'status', 'language', 'currency', 'shard', 'created_at', 'updated_at'],
    [[TID, SLUG, 'Community Bench School', 'active', 'en', 'USD', SHARD, now, now]],
  )
  rows += await insertRows(
    dbs.control,
    'domains',
    ['id', 'tenant_id', 'hostname', 'kind', 'verification_status', 'created_at', 'updated_at'],
    [['cd-0', TID, `${SLUG}.localhost`, 'platform_subdomain', 'active', now, now]],
  )
  return { rows, cookie: `cf_session=${id}.${secret}`, pinned }
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
const cursorAt = (i) => `${createdAt(TOPIC, i)}_${postId(TOPIC, i)}`
// first page: no cursor; middle: the cursor of post ~5,000 (newest first: posts 4,999 … 4,980);
// last: the cursor of post 20 (posts 19 … 0, the oldest, and no next page).
const PAGES = [
  { key: 'first', label: 'first page', cursor: null, expectFirst: POSTS - 1 },
  { key: 'middle', label: 'middle page (cursor at post 5,000 of 10,000)', cursor: cursorAt(5_000), expectFirst: 4_999 },
  { key: 'last', label: 'last page (cursor at post 20: the 20 oldest)', cursor: cursorAt(20), expectFirst: 19 },
]
const htmlPath = (p) => `/community/topics/${TOPIC}${p.cursor ? `?before=${p.cursor}` : ''}`
const jsonPath = (p) => `/json/community/topics/${TOPIC}${p.cursor ? `?cursor=${p.cursor}` : ''}`
const JSON_HEADERS = { 'X-Requested-With': 'XMLHttpRequest', Accept: 'application/json', 'Sec-Fetch-Site': 'same-origin' }

async function postJson(base, host, path, headers) {
  const { request } = await import('node:http')
  return new Promise((ok, fail) => {
    const u = new URL(path, base)
    const req = request({ method: 'POST', host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { Host: host, 'Content-Length': 0, ...headers } }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => ok({ status: res.statusCode, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', fail)
    req.end()
  })
}

async function checkPages(base, host, cookie, pinned) {
  for (const p of PAGES) {
    const newest = postId(TOPIC, p.expectFirst)
    const oldest = postId(TOPIC, p.expectFirst - 19)
    const html = await probe(base, host, htmlPath(p), { Cookie: cookie })
    if (html.status !== 200) throw new Error(`${htmlPath(p)} answered ${html.status}: ${html.body.slice(0, 300)}`)
    for (const id of [newest, oldest]) if (!html.body.includes(`/community/posts/${id}`)) throw new Error(`${htmlPath(p)}: post ${id} is not on the page`)
    if (html.body.includes(postId(OTHER, p.expectFirst))) throw new Error(`${htmlPath(p)}: a post of the other topic is on the page`)
    const json = await postJson(base, host, jsonPath(p), { Cookie: cookie, ...JSON_HEADERS })
    if (json.status !== 200) throw new Error(`POST ${jsonPath(p)} answered ${json.status}: ${json.body.slice(0, 300)}`)
    const data = JSON.parse(json.body).community_posts
    const ids = data.data.map((d) => String(d.id ?? d.post_id))
    const expected = Array.from({ length: 20 }, (_, k) => postId(TOPIC, p.expectFirst - k))
    const feed = p.key === 'first' ? ids.slice(1) : ids
    if (p.key === 'first' && ids[0] !== pinned) throw new Error(`JSON first page: the pinned post ${pinned} is not first (${ids[0]})`)
    if (feed.join() !== expected.join()) throw new Error(`JSON ${p.key} page: got ${feed.slice(0, 3).join()}…, expected ${expected.slice(0, 3).join()}…`)
    if ((p.key === 'last') !== (data.next_page_url === null)) throw new Error(`JSON ${p.key} page: next_page_url ${data.next_page_url}`)
    p.htmlBytes = html.bytes
    p.jsonBytes = Buffer.byteLength(json.body)
  }
}

async function load(name, base, { host, path, method = 'GET', headers = {} }) {
  const { default: autocannon } = await import('autocannon')
  const opts = { url: new URL(path, base).toString(), method, connections: CONNECTIONS, headers: { host, ...headers } }
  if (WARMUP > 0) await autocannon({ ...opts, duration: WARMUP })
  const r = await autocannon({ ...opts, duration: SECONDS })
  const row = { name, rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, requests: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts }
  log(`${name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms${row.non2xx ? `, non-2xx ${row.non2xx}` : ''}${row.errors ? `, errors ${row.errors}` : ''}`)
  return row
}

// ---------------------------------------------------------------------------------------------
// 4. the page query as drizzle builds it: its plan, and the rows D1 reads for it (meta.rows_read)
// A keyset page is constant time when the cursor bounds the index walk (the plan's SEARCH names
// created_at); an index used only for (tenant_id, topic_id) and the order still walks every newer
// entry of the topic first. For comparison, the same statement with the cursor written as a row
// value — `(created_at, id) < (?, ?)` — is explained and run too (a reference only, not app code).

async function queryPlans(d1, pinned) {
  const { tsImport } = await import('tsx/esm/api')
  const schema = await tsImport(join(root, 'app/db/schema.server.ts'), import.meta.url)
  const community = await tsImport(join(root, 'app/models/community.server.ts'), import.meta.url)
  const gallery = await tsImport(join(root, 'app/models/community-gallery.server.ts'), import.meta.url)
  // The app's own drizzle-orm (bench/ has none: resolved from the repo's node_modules, ESM build).
  const { drizzle } = await import('drizzle-orm/d1')
  const logged = []
  const db = drizzle(d1, { schema, logger: { logQuery: (sql, params) => logged.push({ sql, params }) } })
  const topic = { id: TOPIC, pinnedPostId: pinned }
  const capture = async (run) => {
    logged.length = 0
    const result = await run()
    if (logged.length !== 1) throw new Error(`expected one statement, got ${logged.length}`)
    return { ...logged[0], result }
  }
  const plan = async ({ sql, params }) =>
    (
      await d1
        .prepare(`EXPLAIN QUERY PLAN ${sql}`)
        .bind(...params)
        .all()
    ).results.map((r) => r.detail)
  const rowsRead = async ({ sql, params }) =>
    (
      await d1
        .prepare(sql)
        .bind(...params)
        .all()
    ).meta.rows_read
  const pages = []
  for (const p of PAGES) {
    const q = await capture(() => community.listTopicPosts(db, TID, topic, community.decodeCursor(p.cursor)))
    if (q.result.posts.length !== 20 || q.result.posts[0].id !== postId(TOPIC, p.expectFirst)) throw new Error(`listTopicPosts did not return the expected ${p.key} page`)
    const row = { key: p.key, label: p.label, sql: q.sql, params: q.params, plan: await plan(q), rowsRead: await rowsRead(q) }
    pages.push(row)
  }
  const preview = await capture(() => gallery.listGalleryPosts(db, TID, [TOPIC], null, gallery.GALLERY_PREVIEW_SIZE))
  return { pages, preview: { sql: preview.sql, plan: await plan(preview), rowsRead: await rowsRead(preview) } }
}

// ---------------------------------------------------------------------------------------------
// 5. report
const msPer = (r) => (r.rps ? (1000 / r.rps).toFixed(1) : '–')
function render(res) {
  const out = []
  out.push(`### Run of ${res.date}`)
  out.push('')
  out.push(`- Measured: ${res.source}; \`node bench/community-feed.mjs${res.args ? ` ${res.args}` : ''}\`.`)
  out.push(`- Machine: ${res.machine.nproc} vCPU, ${res.machine.cpu}; Node ${res.machine.node}; miniflare ${res.machine.miniflare}; load generator and workerd on the same cores.`)
  out.push(
    `- Load: autocannon ${res.machine.autocannon}, ${res.settings.connections} connections, ${res.settings.warmup} s warm-up then ${res.settings.seconds} s per row, keep-alive; 1-minute load average ${res.machine.load}.`,
  )
  out.push(
    `- Data: one school, topic \`${TOPIC}\` with ${POSTS.toLocaleString('en')} posts (one pinned, one in ${IMAGE_EVERY} with a picture) and topic \`${OTHER}\` with ${POSTS.toLocaleString(
      'en',
    )} more, created in between (seeded ${res.seedRows.toLocaleString('en')} rows in ${res.seedSeconds} s); a signed-in student; 20 posts a page.`,
  )
  out.push('')
  out.push('| row | req/s | ≈ ms/req | p50 ms | p99 ms | bytes | requests | non-2xx | errors |')
  out.push('|---|---|---|---|---|---|---|---|---|')
  for (const r of res.rows) out.push(`| ${r.name} | ${r.rps} | ${msPer(r)} | ${r.p50} | ${r.p99} | ${r.bytes} | ${r.requests} | ${r.non2xx} | ${r.errors} |`)
  out.push('')
  const ratio = (kind) => {
    const f = res.rows.find((r) => r.kind === kind && r.page === 'first')
    const m = res.rows.find((r) => r.kind === kind && r.page === 'middle')
    const l = res.rows.find((r) => r.kind === kind && r.page === 'last')
    return `${kind}: last/first req/s ${(l.rps / f.rps).toFixed(2)}, middle/first ${(m.rps / f.rps).toFixed(2)}; p50 last/first ${(l.p50 / f.p50).toFixed(2)}`
  }
  out.push(`Ratios — ${ratio('HTML')}; ${ratio('JSON')}.`)
  out.push('')
  const [first, middle] = res.plans.pages
  const seekOf = (plan) => plan.find((d) => d.includes('community_posts_topic_idx')) ?? plan.join(' / ')
  out.push("The page query alone (`listTopicPosts` as drizzle builds it, captured with its query logger and run on the school's shard; `rows_read` is D1's own count):")
  out.push('')
  out.push('| page | `EXPLAIN QUERY PLAN` (community_posts) | D1 rows_read |')
  out.push('|---|---|---|')
  for (const p of res.plans.pages)
    out.push(`| ${p.key} | \`${seekOf(p.plan)}\` | ${p.rowsRead} |`)
  out.push('')
  out.push('The statement (middle page) and its full plan:')
  out.push('')
  out.push('```sql')
  out.push(middle.sql)
  out.push(`-- params: ${JSON.stringify(middle.params)}`)
  out.push('```')
  out.push('')
  out.push('```')
  for (const d of middle.plan) out.push(d)
  out.push('```')
  out.push('')
  out.push(
    `First page (no cursor): \`${first.plan.join(
      ' / ',
    )}\`. The HTML page also reads its gallery preview (\`listGalleryPosts\`, the 6 newest posts with a picture or video; one post in ${IMAGE_EVERY} has one here): \`${res.plans.preview.plan.join(
      ' / ',
    )}\`, rows_read ${res.plans.preview.rowsRead}.`,
  )
  return out.join('\n')
}

const START = '<!-- bench:community-feed:start -->'
const END = '<!-- bench:community-feed:end -->'
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
    const dbs = await openDbs(mf, 'app')
    let t = Date.now()
    await migrate(dbs)
    const seeded = await seed(dbs)
    const seedSeconds = ((Date.now() - t) / 1000).toFixed(1)
    log(`seeded ${seeded.rows} rows in ${seedSeconds} s`)
    const host = `${SLUG}.localhost`
    await checkPages(base, host, seeded.cookie, seeded.pinned)
    log('every page answered 200 with the expected posts')
    // The page queries read tenant data only: the school's shard.
    const plans = await queryPlans(dbs.shards[SHARD], seeded.pinned)
    for (const p of plans.pages) log(`page query, ${p.key} page: ${p.plan.join(' / ')}; D1 rows_read ${p.rowsRead}`)
    // The brief's bar: the topic index, no full scan, no sort of the result.
    const bad = plans.pages.flatMap((p) => p.plan).filter((d) => /\bSCAN\b|TEMP B-TREE/.test(d))
    const usesIndex = plans.pages.every((p) => p.plan.some((d) => /community_posts USING (COVERING )?INDEX community_posts_topic_idx/.test(d)))
    if (!usesIndex || bad.length) {
      for (const p of plans.pages) console.log(`${p.key}: ${p.sql}\n${p.plan.join('\n')}`)
      throw new Error(`the page query does not walk community_posts_topic_idx: ${bad.join('; ') || 'index not named'}`)
    }
    const seeks = plans.pages.filter((p) => p.params.length > 5).every((p) => p.plan.some((d) => /community_posts_topic_idx \([^)]*created_at/.test(d)))
    if (!seeks) log('NOTE: the cursor does not bound the index walk (no created_at in the SEARCH): deeper pages read more index entries')

    const loadBefore = loadavg()[0].toFixed(2)
    const rows = []
    for (const kind of ['HTML', 'JSON']) {
      for (const p of PAGES) {
        const path = kind === 'HTML' ? htmlPath(p) : jsonPath(p)
        const name = `${kind} ${p.label}: ${kind === 'HTML' ? 'GET' : 'POST'} \`${path.replace(/\?.*/, p.cursor ? '?…' : '')}\``
        const row = await load(name, base, kind === 'HTML' ? { host, path, headers: { Cookie: seeded.cookie } } : { host, path, method: 'POST', headers: { Cookie: seeded.cookie, ...JSON_HEADERS } })
        rows.push({ ...row, kind, page: p.key, bytes: kind === 'HTML' ? p.htmlBytes : p.jsonBytes })
      }
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
        load: `${loadBefore} before / ${loadAfter} after the rows`,
      },
      seedRows: seeded.rows,
      seedSeconds,
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
