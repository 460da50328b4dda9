#!/usr/bin/env node
// Shard routing bench (issue 26 §3, ADR 033): does picking the school's shard cost anything? The
// same schools — the storefront bench's 200-course school plus small ones, 10,000 in all — once
// on ONE shard and once spread over TWO, served by the same deployable bundle (the repo's last
// build/worker/server.js, never rebuilt here) on ONE workerd (miniflare), in interleaved rounds.
//
//   node bench/shard-routing.mjs [--schools 10000] [--students 10000] [--rounds 18] [--requests 40]
//                                [--concurrency 1] [--warmup 15]
//
// Layouts (each its own D1 databases, the same rows):
//   1 shard:  DB (control plane) + DB_SHARD_0 holding every school (tenants.shard = 0).
//   2 shards: DB + DB_SHARD_0 / DB_SHARD_1; school n on shard n % 2, so the big school (n = 0) is
//             put on shard 1 explicitly: the measured pages go through the second binding.
//   A/A control: the 1-shard layout once more, as other workers (own isolates) on its databases.
// Each runs as deployed (page cache on) and with PAGE_CACHE=off (every loader reads D1). A round
// measures every case on the three back to back, in one of the six orders in turn; the ratios
// 2-shard / 1-shard and A/A are taken per round, so their spread shows the machine's noise.
// Every answer's status is checked: in the 2-shard layout a school's rows exist only in its own
// shard, so a 200 (a 303 for the order) proves the request went to the right database.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { Agent, request as httpRequest } from 'node:http'
import { cpus, loadavg } from 'node:os'
import { join, resolve } from 'node:path'
import { BIG, BIG_SHAPE, COURSE_INDEX, QUEUES, SMALL_SHAPE, Writer, migrateAll, schoolRows, sessionFor, smallSchool } from './lib/seed.mjs'
import { appWorkerOptions, work as benchWork } from './storefront.mjs'

const benchDir = import.meta.dirname
const root = resolve(benchDir, '..')
const work = join(benchWork, 'shard-routing')
const argv = process.argv.slice(2)
const num = (name, fallback) => {
  const i = argv.indexOf(name)
  return i === -1 ? fallback : Number(argv[i + 1])
}
const SCHOOLS = num('--schools', 10_000)
const STUDENTS = num('--students', 10_000)
const ROUNDS = num('--rounds', 18)
const REQUESTS = num('--requests', 40)
const CONCURRENCY = num('--concurrency', 1)
const WARMUP = num('--warmup', 15)
const TEST_SECRET = 'shard-bench-test-payments-secret'
const log = (...a) => console.log('•', ...a)

// The storefront bench's schools (bench/lib/seed.mjs); --students resizes the big one.
const BIG_STUDENTS_SHAPE = { ...BIG_SHAPE, students: STUDENTS }
const COURSE = `/course-${COURSE_INDEX + 1}` // the big school's course with a promotion, reviews and a free lecture
const BUYER = COURSE_INDEX // student 99 has courses 100 and 107 (i, i + 7): course-1 is a new purchase
const twoShardsOf = (n) => (n === BIG.n ? 1 : n % 2)

// ---------------------------------------------------------------------------------------------
// 1. the bundle: the repo's last build, copied under the shared build lock
function copyBuild() {
  const src = join(root, 'build', 'worker', 'server.js')
  if (!existsSync(src)) throw new Error('no build/worker/server.js: the lead builds (`npm run build`); this bench never does')
  const out = join(work, 'app')
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  execFileSync('flock', ['-s', '/tmp/build.lock', 'cp', src, join(out, 'server.js')])
  const git = (...a) => execFileSync('git', ['-C', root, ...a], { encoding: 'utf8' }).trim()
  const dirty = git('status', '--porcelain').split('\n').filter(Boolean).length
  const built = statSync(src)
    .mtime.toISOString()
    .replace(/\.\d+Z$/, 'Z')
  return {
    out,
    source: `build/worker/server.js of ${built} (branch ${git('rev-parse', '--abbrev-ref', 'HEAD')} at ${git('rev-parse', '--short', 'HEAD')}${dirty ? ` + ${dirty} uncommitted paths` : ''})`,
  }
}

// ---------------------------------------------------------------------------------------------
// 2. one workerd: both layouts, each as deployed and with PAGE_CACHE=off, plus a seeding worker
const LAYOUTS = {
  one: { DB: 'one-control', DB_SHARD_0: 'one-shard-0' },
  two: { DB: 'two-control', DB_SHARD_0: 'two-shard-0', DB_SHARD_1: 'two-shard-1' },
}

async function startWorkerd(out) {
  const { Miniflare } = await import('miniflare')
  const state = join(work, 'state')
  rmSync(state, { recursive: true, force: true })
  const base = appWorkerOptions(out, 'app')
  const app = (name, d1Databases, extra = {}) => ({
    ...base,
    name,
    // Production mode with the built-in test provider allowed (a staging deployment): real checkout code.
    bindings: { ...base.bindings, ALLOW_TEST_PAYMENTS: 'true', TEST_PAYMENTS_SECRET: TEST_SECRET, ...extra },
    d1Databases,
    queueProducers: Object.fromEntries(Object.entries(QUEUES).map(([b, q]) => [b, { queueName: q }])),
  })
  const mf = new Miniflare({
    d1Persist: join(state, 'd1'),
    r2Persist: join(state, 'r2'),
    cachePersist: join(state, 'cache'),
    queuesPersist: join(state, 'queues'),
    workers: [
      app('one', LAYOUTS.one),
      app('two', LAYOUTS.two),
      app('one-cold', LAYOUTS.one, { PAGE_CACHE: 'off' }),
      app('two-cold', LAYOUTS.two, { PAGE_CACHE: 'off' }),
      // A/A control: the 1-shard layout again, as other workers (own isolates) on the same databases.
      app('same', LAYOUTS.one),
      app('same-cold', LAYOUTS.one, { PAGE_CACHE: 'off' }),
      // Seeding from Node, outside the app.
      {
        name: 'seed',
        modules: true,
        script: 'export default { fetch() { return new Response("seed") } }',
        d1Databases: Object.fromEntries([...Object.values(LAYOUTS.one), ...Object.values(LAYOUTS.two)].map((id) => [id.replace(/-/g, '_'), id])),
      },
    ],
  })
  await mf.ready
  const d1 = async (id) => mf.getD1Database(id.replace(/-/g, '_'), 'seed')
  const urls = {}
  for (const w of ['one', 'two', 'same', 'one-cold', 'two-cold', 'same-cold']) urls[w] = await mf.unsafeGetDirectURL(w)
  return {
    mf,
    urls,
    one: { control: await d1(LAYOUTS.one.DB), shards: [await d1(LAYOUTS.one.DB_SHARD_0)] },
    two: { control: await d1(LAYOUTS.two.DB), shards: [await d1(LAYOUTS.two.DB_SHARD_0), await d1(LAYOUTS.two.DB_SHARD_1)] },
  }
}

// ---------------------------------------------------------------------------------------------
// 3. seed: the same rows into both layouts (bench/lib/seed.mjs, shared with the storefront and capacity benches)
async function seed(ctx) {
  const t = Date.now()
  const now = Date.now()
  for (const layout of [ctx.one, ctx.two]) {
    await migrateAll(layout)
  }
  // Writer counts rows as they are added: the same count as before the seeding moved to bench/lib.
  const w = {
    one: { control: new Writer(ctx.one.control), shards: [new Writer(ctx.one.shards[0])] },
    two: { control: new Writer(ctx.two.control), shards: ctx.two.shards.map((d) => new Writer(d)) },
  }
  const all = [w.one.control, ...w.one.shards, w.two.control, ...w.two.shards]
  const flushAll = () => Promise.all(all.map((x) => x.flush()))
  for (let n = 0; n < SCHOOLS; n++) {
    const big = n === BIG.n
    const school = big ? BIG : smallSchool(n)
    const shape = big ? BIG_STUDENTS_SHAPE : SMALL_SHAPE
    schoolRows(w.one.control, w.one.shards[0], { ...school, shard: 0 }, shape, now)
    const s = twoShardsOf(n)
    schoolRows(w.two.control, w.two.shards[s], { ...school, shard: s }, shape, now)
    if (big || n % 1000 === 0) await flushAll()
  }
  // The buyer's session (in the big school's shard of each layout; the same cookie works in both).
  const session = sessionFor(`bt-${BIG.n}`, `bu-${BIG.n}-${BUYER}`, now)
  w.one.shards[0].add('sessions', session.cols, session.rows)
  w.two.shards[twoShardsOf(BIG.n)].add('sessions', session.cols, session.rows)
  await flushAll()
  const rows = (x) => x.rows
  log(
    `seeded ${SCHOOLS.toLocaleString('en')} schools in ${((Date.now() - t) / 1000).toFixed(1)} s: 1 shard ${rows(w.one.shards[0]).toLocaleString('en')} tenant rows; 2 shards ${w.two.shards
      .map(rows)
      .map((r) => r.toLocaleString('en'))
      .join(' + ')}`,
  )
  return { cookie: session.cookie, seedSeconds: ((Date.now() - t) / 1000).toFixed(1), shardRows: { one: [rows(w.one.shards[0])], two: w.two.shards.map(rows) } }
}

// ---------------------------------------------------------------------------------------------
// 4. requests
const agent = new Agent({ keepAlive: true, maxSockets: Math.max(1, CONCURRENCY) })

function send(base, { host, path, method = 'GET', headers = {}, body }) {
  return new Promise((res, rej) => {
    const u = new URL(path, base)
    const started = performance.now()
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname + u.search, method, agent, headers: { Host: host, ...headers } }, (r) => {
      const chunks = []
      r.on('data', (c) => chunks.push(c))
      r.on('end', () => res({ status: r.statusCode, ms: performance.now() - started, headers: r.headers, body: Buffer.concat(chunks).toString('utf8') }))
    })
    req.on('error', rej)
    if (body) req.write(body)
    req.end()
  })
}

/** The measured cases; `request(hosts)` makes one request (only the rotating case takes the next host). */
function cases(cookie) {
  const host = `${BIG.slug}.localhost`
  const form = { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: `http://${host}` }
  return [
    {
      key: 'hit',
      name: `course page \`${COURSE}\` of the 200-course school, anonymous, as deployed (page cache hit; the content version is read from the shard at most every 2 s per isolate)`,
      worker: '',
      expect: 200,
      request: () => ({ host, path: COURSE }),
    },
    {
      key: 'render',
      name: `course page \`${COURSE}\`, anonymous, \`PAGE_CACHE=off\` (full render, every loader reads the shard)`,
      worker: '-cold',
      expect: 200,
      request: () => ({ host, path: COURSE }),
    },
    {
      key: 'rotate',
      name: `course page \`/course-1\` of a different small school each request (Host rotates over ${(SCHOOLS - 1).toLocaleString(
        'en',
      )}: tenant resolution reads the control plane, then the school's shard), \`PAGE_CACHE=off\``,
      worker: '-cold',
      expect: 200,
      request: (hosts) => ({ host: hosts.next(), path: '/course-1' }),
    },
    { key: 'checkout', name: 'checkout page `/course-1/checkout`, signed-in student', worker: '', expect: 200, request: () => ({ host, path: '/course-1/checkout', headers: { Cookie: cookie } }) },
    {
      key: 'order',
      name: 'place the order: `POST /course-1/checkout` (a pending transaction, 303 to the test provider)',
      worker: '',
      expect: 303,
      request: () => ({ host, path: '/course-1/checkout', method: 'POST', headers: { Cookie: cookie, ...form }, body: 'terms=on&waiver=on' }),
    },
  ]
}

/** `count` requests of a case, `CONCURRENCY` at a time; latencies in ms. */
async function run(base, c, count, hosts) {
  const ms = []
  let next = 0
  const bad = []
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < count) {
        next++
        const r = await send(base, c.request(hosts))
        // The form's own errors, when an HTML answer carries them (Remix's embedded action data).
        const errors = /errors[^{]{0,20}(\{.{0,300})/.exec(r.body)?.[1] ?? r.body.slice(0, 200)
        if (r.status !== c.expect) bad.push(`${r.status} ${r.headers.location ?? ''} ${errors}`)
        ms.push(r.ms)
      }
    }),
  )
  if (bad.length) throw new Error(`${c.key}: ${bad.length} of ${count} answers were not ${c.expect}, e.g. ${bad[0]}`)
  return ms
}

// ---------------------------------------------------------------------------------------------
// 5. statistics and report
const pct = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
const sortNum = (a) => [...a].sort((x, y) => x - y)
const median = (a) => pct(sortNum(a), 50)
const f1 = (x) => x.toFixed(x < 10 ? 2 : 1)
const ORDERS = [
  ['one', 'two', 'same'],
  ['two', 'same', 'one'],
  ['same', 'one', 'two'],
  ['one', 'same', 'two'],
  ['two', 'one', 'same'],
  ['same', 'two', 'one'],
]

function render(res) {
  const o = []
  o.push(
    `| case | 1 shard p50 ms | 1 shard p95 ms | 2 shards p50 ms | 2 shards p95 ms | 2/1 of p50 (all requests) | 2/1 of p50 per round: median (p25–p75; min–max) | A/A control, 1/1 per round: median (p25–p75; min–max) | requests per layout |`,
  )
  o.push('|---|---|---|---|---|---|---|---|---|')
  for (const c of res.cases) {
    const one = sortNum(c.one)
    const two = sortNum(c.two)
    const spread = (a) => `${median(a).toFixed(2)} (${pct(a, 25).toFixed(2)}–${pct(a, 75).toFixed(2)}; ${a[0].toFixed(2)}–${a.at(-1).toFixed(2)})`
    const ratios = sortNum(c.rounds.map((r) => r.two / r.one))
    const control = sortNum(c.rounds.map((r) => r.same / r.one))
    o.push(
      `| ${c.name} | ${f1(pct(one, 50))} | ${f1(pct(one, 95))} | ${f1(pct(two, 50))} | ${f1(pct(two, 95))} | ${(pct(two, 50) / pct(one, 50)).toFixed(2)} | ${spread(ratios)} | ${spread(control)} | ${
        one.length
      } |`,
    )
  }
  return o.join('\n')
}

// ---------------------------------------------------------------------------------------------
async function main() {
  const t0 = Date.now()
  const { out, source } = copyBuild()
  const loadBefore = loadavg()[0].toFixed(2)
  const ctx = await startWorkerd(out)
  let result
  try {
    const seeded = await seed(ctx)
    // Every small school's host, shuffled once: both layouts get the same sequence, each host new to the isolate.
    const small = Array.from({ length: SCHOOLS - 1 }, (_, i) => `school-${String(i + 1).padStart(5, '0')}.localhost`)
    for (let i = small.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1))
      ;[small[i], small[j]] = [small[j], small[i]]
    }
    const measured = cases(seeded.cookie).map((c) => ({ ...c, one: [], two: [], same: [], rounds: [] }))
    // Warm-up (not counted): every case on both layouts; the rotating case on hosts of its own.
    let cursor = 0
    const hostsFrom = (start) => ({
      i: start,
      next() {
        return small[this.i++ % small.length]
      },
    })
    for (const c of measured) {
      for (const layout of ['one', 'two', 'same']) {
        await run(ctx.urls[layout + c.worker], c, WARMUP, hostsFrom(cursor))
      }
      if (c.key === 'rotate') cursor += WARMUP
    }
    log(`warmed up (${WARMUP} requests per case and layout); ${ROUNDS} rounds of ${REQUESTS} requests, concurrency ${CONCURRENCY}`)
    for (let round = 0; round < ROUNDS; round++) {
      // Every order of the three in turn, so none is always first or always after the same one.
      const order = ORDERS[round % ORDERS.length]
      for (const c of measured) {
        const medians = {}
        for (const layout of order) {
          // the same hosts for every layout in this round
          const ms = await run(ctx.urls[layout + c.worker], c, REQUESTS, hostsFrom(cursor))
          c[layout].push(...ms)
          medians[layout] = median(ms)
        }
        if (c.key === 'rotate') cursor += REQUESTS
        c.rounds.push(medians)
      }
      log(
        `round ${round + 1}/${ROUNDS} (p50 1 shard / 2 shards / A/A copy): ${measured
          .map((c) => `${c.key} ${f1(c.rounds.at(-1).one)}/${f1(c.rounds.at(-1).two)}/${f1(c.rounds.at(-1).same)} ms`)
          .join(', ')}`,
      )
    }
    if (cursor > small.length) log(`note: the rotating case reused hosts (${cursor} requests over ${small.length} schools)`)
    result = { seeded, cases: measured }
  } finally {
    agent.destroy()
    await ctx.mf.dispose()
    rmSync(join(work, 'state'), { recursive: true, force: true })
  }
  const loadAfter = loadavg()[0].toFixed(2)
  const miniflare = JSON.parse(readFileSync(join(root, 'node_modules', 'miniflare', 'package.json'), 'utf8')).version
  const date = new Date().toISOString().replace(/\.\d+Z$/, 'Z')
  console.log(`\n### Run of ${date}\n`)
  console.log(`- Measured: ${source}; \`node bench/shard-routing.mjs${argv.length ? ` ${argv.join(' ')}` : ''}\`.`)
  console.log(`- Machine: ${cpus().length} vCPU, ${cpus()[0]?.model ?? 'unknown'}; Node ${process.version}; miniflare ${miniflare}; 1-minute load average ${loadBefore} before / ${loadAfter} after.`)
  console.log(
    `- Data: ${SCHOOLS.toLocaleString('en')} schools (the 200-course school with ${STUDENTS.toLocaleString('en')} students + ${(SCHOOLS - 1).toLocaleString('en')} with ${
      SMALL_SHAPE.products
    } courses, ${SMALL_SHAPE.students} students), seeded in ${result.seeded.seedSeconds} s; tenant rows: 1 shard ${result.seeded.shardRows.one[0].toLocaleString(
      'en',
    )}, 2 shards ${result.seeded.shardRows.two.map((r) => r.toLocaleString('en')).join(' + ')} (the big school on shard 1).`,
  )
  console.log(
    `- Load: ${ROUNDS} rounds × ${REQUESTS} requests per case and layout, ${CONCURRENCY} at a time over keep-alive, after ${WARMUP} warm-up requests each; the order of the three (1 shard, 2 shards, the A/A copy of 1 shard) changes every round through all six.\n`,
  )
  console.log(render(result))
  console.log('')
  log(`done in ${Math.round((Date.now() - t0) / 1000)} s`)
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
