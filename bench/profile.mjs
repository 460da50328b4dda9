#!/usr/bin/env node
// CPU profiles of the storefront on workerd (issue 21): the production bundle (built with a server
// source map, so the minified code maps back to app/ and node_modules/<pkg>) runs as `app-bare` (no
// [assets], no asset router) and `app-cold` (PAGE_CACHE=off) in one workerd via miniflare with the V8
// inspector on; for each case the CDP Profiler samples the worker's isolate while autocannon loads it.
//
//   node bench/profile.mjs [--skip-build | --from-build] [--seconds 5] [--connections 16] [--interval 150] <case…>
//   cases: course-bypass course-hit course-signed-in course-cold login   (default: the first three)
//
// Reuses bench/storefront.mjs (seed, migrations, wrangler vars, probes). The build differs from the
// bench's: a scratch copy of the working tree (tracked + untracked, not ignored; node_modules linked),
// `remix vite:build --sourcemapServer` then `wrangler deploy --dry-run --outdir` — the same code as
// the deployed bundle (the source map only adds a comment), with a source map chained through vite's.
// --from-build builds nothing: the repo's last build (build/worker/server.js and its chained
// server.js.map from scripts/build-workers.mjs), copied under the shared build lock. That build has
// no server source map of its own, so app code shows as build/server/index.js (minified names):
// node_modules and the runtime still map; build without the flag for app/ names.
// Schema (ADR 033): the control plane and the shards, migrated and seeded by bench/lib/seed.mjs.
// Raw profiles: $TMPDIR/coursefront-bench/profiles/<case>.cpuprofile (open in Chrome DevTools).
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { appWorkerOptions, BIG, COURSE_INDEX, ensureBenchDeps, migrate, openDbs, probe, seedBig, work } from './storefront.mjs'

const root = resolve(import.meta.dirname, '..')
const argv = process.argv.slice(2)
const opt = (name, fallback) => {
  const i = argv.indexOf(name)
  return i === -1 ? fallback : Number(argv[i + 1])
}
const SECONDS = opt('--seconds', 5)
const CONNECTIONS = opt('--connections', 16)
const INTERVAL = opt('--interval', 150) // µs
const WARMUP = opt('--warmup', 2)
const TOP = opt('--top', 25)
const valued = new Set(['--seconds', '--connections', '--interval', '--warmup', '--top'])
const CASES = ['course-bypass', 'course-hit', 'course-signed-in', 'course-cold', 'login']
const wanted = argv.filter((a, i) => !a.startsWith('--') && !valued.has(argv[i - 1]))
for (const c of wanted) {
  if (!CASES.includes(c)) {
    console.error(`unknown case ${c}; known: ${CASES.join(' ')}`)
    process.exit(2)
  }
}
const cases = wanted.length ? wanted : ['course-bypass', 'course-signed-in', 'course-hit']
const log = (...a) => console.log('•', ...a)
const profDir = join(work, 'profiles')
const appDir = join(work, 'profile-app')

// ---------------------------------------------------------------------------------------------
// build: scratch copy of the working tree, server source map on
function build() {
  const bundle = join(appDir, 'server.js')
  if (argv.includes('--skip-build') && existsSync(bundle) && existsSync(`${bundle}.map`)) return readFileSync(join(appDir, 'source.txt'), 'utf8')
  if (argv.includes('--from-build')) return copyBuild(bundle)
  const src = join(work, 'profile-src')
  rmSync(src, { recursive: true, force: true })
  mkdirSync(src, { recursive: true })
  // node_modules: linked below (in a worktree it is itself an untracked symlink, listed here)
  const files = execFileSync('git', ['-C', root, 'ls-files', '-co', '--exclude-standard', '-z'], { encoding: 'utf8' })
    .split('\0')
    .filter((f) => f && f !== 'node_modules')
  for (const f of files) {
    if (!existsSync(join(root, f))) continue // deleted in the working tree
    mkdirSync(dirname(join(src, f)), { recursive: true })
    cpSync(join(root, f), join(src, f))
  }
  symlinkSync(join(root, 'node_modules'), join(src, 'node_modules'))
  const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length
  const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  const source = `working tree at ${head}${dirty ? ` + ${dirty} uncommitted paths` : ''} (scratch copy, server source map)`
  log(`building ${source}`)
  rmSync(appDir, { recursive: true, force: true })
  const bin = (n) => join(root, 'node_modules', '.bin', n)
  const script = `${bin('remix')} vite:build --sourcemapServer && ${bin('wrangler')} deploy --dry-run --outdir ${JSON.stringify(appDir)}`
  const r = spawnSync('sh', ['-c', script], { cwd: src, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', CI: 'true' } })
  if (r.status !== 0 || !existsSync(bundle)) {
    process.stderr.write(`${r.stdout}${r.stderr}`.split('\n').slice(-40).join('\n'))
    throw new Error('build failed')
  }
  writeFileSync(join(appDir, 'source.txt'), source)
  return source
}

/** --from-build: the repo's build/worker bundle and source map as they are (never rebuilt here). */
function copyBuild(bundle) {
  const src = join(root, 'build', 'worker', 'server.js')
  if (!existsSync(src) || !existsSync(`${src}.map`)) throw new Error('--from-build: no build/worker/server.js and server.js.map (the lead builds: `npm run build`)')
  rmSync(appDir, { recursive: true, force: true })
  mkdirSync(appDir, { recursive: true })
  // build/ is shared with other sessions: copy it out under the shared lock.
  const script = `cp build/worker/server.js ${JSON.stringify(bundle)} && cp build/worker/server.js.map ${JSON.stringify(`${bundle}.map`)}`
  execFileSync('flock', ['-s', '/tmp/build.lock', 'sh', '-c', script], { cwd: root })
  const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length
  const head = execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
  const built = statSync(src).mtime.toISOString().replace(/\.\d+Z$/, 'Z')
  const source = `build/worker/server.js of ${built} (working tree at ${head}${dirty ? ` + ${dirty} uncommitted paths` : ''})`
  writeFileSync(join(appDir, 'source.txt'), source)
  log(`using the repo's build: ${source}`)
  return source
}

// ---------------------------------------------------------------------------------------------
// workerd: app-bare and app-cold only, inspector on, own persistence directory
async function startWorkerd() {
  const { Miniflare } = await import('miniflare')
  const persist = join(work, 'profile-state')
  rmSync(persist, { recursive: true, force: true })
  const app = appWorkerOptions(appDir, 'app-bare')
  const mf = new Miniflare({
    inspectorPort: 0,
    d1Persist: join(persist, 'd1'),
    r2Persist: join(persist, 'r2'),
    cachePersist: join(persist, 'cache'),
    workers: [app, { ...app, name: 'app-cold', bindings: { ...app.bindings, PAGE_CACHE: 'off' } }],
  })
  await mf.ready
  const inspector = await mf.getInspectorURL()
  return { mf, inspector, urls: { 'app-bare': await mf.unsafeGetDirectURL('app-bare'), 'app-cold': await mf.unsafeGetDirectURL('app-cold') } }
}

// ---------------------------------------------------------------------------------------------
// CDP over the inspector socket (ws from bench/node_modules)
async function connect(inspector, worker) {
  const http = new URL(inspector)
  http.protocol = 'http:'
  const list = await (await fetch(new URL('/json/list', http))).json()
  const target = list.find((t) => t.id === `core:user:${worker}`) ?? list.find((t) => String(t.id).endsWith(`:${worker}`)) ?? list.find((t) => JSON.stringify(t).includes(worker))
  if (!target) throw new Error(`no inspector target for ${worker}: ${JSON.stringify(list)}`)
  const { default: WebSocket } = await import('ws')
  const url = target.webSocketDebuggerUrl.startsWith('ws://') ? target.webSocketDebuggerUrl : `ws://${target.webSocketDebuggerUrl}`
  const ws = new WebSocket(url.replace('localhost', '127.0.0.1'), { maxPayload: 1024 * 1024 * 1024 })
  await new Promise((res, rej) => {
    ws.once('open', res)
    ws.once('error', rej)
  })
  let id = 0
  const pending = new Map()
  ws.on('message', (data) => {
    const msg = JSON.parse(data.toString())
    if (msg.id && pending.has(msg.id)) {
      const { res, rej } = pending.get(msg.id)
      pending.delete(msg.id)
      if (msg.error) rej(new Error(`${JSON.stringify(msg.error)}`))
      else res(msg.result)
    }
  })
  const send = (method, params = {}) =>
    new Promise((res, rej) => {
      const n = ++id
      pending.set(n, { res, rej })
      ws.send(JSON.stringify({ id: n, method, params }))
    })
  return { send, close: () => ws.close(), target }
}

async function autocannonRun(url, host, path, headers, duration) {
  const { default: autocannon } = await import('autocannon')
  const r = await autocannon({ url: new URL(path, url).toString(), connections: CONNECTIONS, duration, headers: { host, ...headers } })
  return { rps: r.requests.average, requests: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts }
}

// ---------------------------------------------------------------------------------------------
// analysis
let consumer // source-map 0.6 (sync)
async function loadMap() {
  const { default: sm } = await import('source-map')
  consumer = new sm.SourceMapConsumer(JSON.parse(readFileSync(join(appDir, 'server.js.map'), 'utf8')))
}
const bundleLines = () => (bundleLines.cache ??= readFileSync(join(appDir, 'server.js'), 'utf8').split('\n'))
const sourceLines = new Map()
function origLine(source, line) {
  if (!sourceLines.has(source)) sourceLines.set(source, consumer.sourceContentFor(source, true)?.split('\n') ?? null)
  return sourceLines.get(source)?.[line - 1] ?? ''
}
/** A source map path relative to the repo (any worktree: --from-build maps to this checkout's absolute paths). */
const repoPath = (source) =>
  (source.startsWith(`${root}/`) ? source.slice(root.length + 1) : source)
    .replace(/^(\.\.\/)+/, '')
    .replace(/^.*?work\/main\//, '')
    .replace(/^.*?profile-src\//, '')
/** node_modules/<pkg> or the app path (app/…, server.ts). */
function moduleOf(source) {
  const s = repoPath(source)
  // drizzle-orm's own source maps point at ../src/*.ts, which resolve to node_modules/src/
  if (s.startsWith('node_modules/src/')) return 'node_modules/drizzle-orm'
  const nm = s.lastIndexOf('node_modules/')
  if (nm !== -1) return s.slice(nm).replace(/^(node_modules\/(@[^/]+\/)?[^/]+).*/, '$1')
  return s
}
const mapCache = new Map()
function locate(cf) {
  const key = `${cf.url}:${cf.lineNumber}:${cf.columnNumber}:${cf.functionName}`
  if (mapCache.has(key)) return mapCache.get(key)
  let r
  if (['(idle)', '(program)', '(garbage collector)', '(root)'].includes(cf.functionName)) r = { special: cf.functionName, name: cf.functionName, where: '', module: cf.functionName }
  else if (!cf.url) r = { native: true, name: `${cf.functionName || '(anonymous)'} [native]`, where: '', module: null }
  else if (/server\.js$/.test(cf.url) && consumer) {
    const p = consumer.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber, bias: 1 })
    const q = p.source ? p : consumer.originalPositionFor({ line: cf.lineNumber + 1, column: cf.columnNumber, bias: 2 })
    if (q.source) {
      const mod = moduleOf(q.source)
      const file = repoPath(q.source)
      const text = origLine(q.source, q.line).trim()
      const m = /(?:function\*?\s+|(?:const|let|var)\s+|^\s*(?:async\s+)?(?:static\s+)?(?:get\s+|set\s+)?)([A-Za-z_$#][\w$]*)\s*(?:=|\()/.exec(text)
      const KEYWORDS = new Set(['if', 'for', 'while', 'switch', 'return', 'await', 'catch', 'new', 'typeof', 'case'])
      const guess = m?.[1] && !KEYWORDS.has(m[1]) ? m[1] : null
      const name = q.name && q.name.length > 2 ? q.name : guess ?? (cf.functionName || '(anonymous)')
      r = { name, where: `${file.replace(/^node_modules\/src\//, 'drizzle-orm/src/').replace(/^node_modules\//, '')}:${q.line}`, module: mod, snippet: text.slice(0, 70) }
    } else {
      const line = bundleLines()[cf.lineNumber] ?? ''
      r = { name: cf.functionName || '(anonymous)', where: `server.js:${cf.lineNumber + 1}:${cf.columnNumber}`, module: null, unmapped: true, snippet: line.slice(Math.max(0, cf.columnNumber - 20), cf.columnNumber + 60) }
    }
  } else r = { name: cf.functionName || '(anonymous)', where: `${cf.url.split('/').slice(-2).join('/')}:${cf.lineNumber + 1}`, module: `(runtime) ${cf.url.replace(/^.*?:\/\//, '').split('/')[0]}` }
  mapCache.set(key, r)
  return r
}

function analyse(profile, requests) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]))
  const parent = new Map()
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
  const self = new Map()
  const { samples, timeDeltas } = profile
  // sample i lasts until sample i+1 (timeDeltas[i+1]); the last one gets the mean
  const total = (profile.endTime - profile.startTime) / 1000
  const mean = total / samples.length
  for (let i = 0; i < samples.length; i++) {
    const dt = i + 1 < samples.length ? timeDeltas[i + 1] / 1000 : mean
    self.set(samples[i], (self.get(samples[i]) ?? 0) + Math.max(0, dt))
  }
  const fn = new Map(), mod = new Map(), special = { '(idle)': 0, '(program)': 0, '(garbage collector)': 0 }
  let busy = 0
  for (const [id, ms] of self) {
    const node = byId.get(id)
    const loc = locate(node.callFrame)
    if (loc.special) {
      if (loc.special in special) special[loc.special] += ms
      if (loc.special === '(idle)' || loc.special === '(root)') continue
    }
    busy += ms
    const k = `${loc.name}\t${loc.where}`
    const f = fn.get(k) ?? { ...loc, ms: 0 }
    f.ms += ms
    fn.set(k, f)
    // native frames count for the module of their nearest JS caller
    let m = loc.module
    let p = id
    while (m === null && parent.has(p)) {
      p = parent.get(p)
      const l = locate(byId.get(p).callFrame)
      m = l.special ? null : l.module
    }
    m ??= '(native, called from the event loop)'
    mod.set(m, (mod.get(m) ?? 0) + ms)
  }
  // inclusive (total) time of app code: each function counted once per sample stack
  const incl = new Map()
  for (let i = 0; i < samples.length; i++) {
    const dt = i + 1 < samples.length ? timeDeltas[i + 1] / 1000 : mean
    const seen = new Set()
    for (let id = samples[i]; id !== undefined; id = parent.get(id)) {
      const loc = locate(byId.get(id).callFrame)
      if (!loc.module || !/^(app\/|server\.ts|load-context)/.test(loc.module)) continue
      const k = `${loc.name}\t${loc.where}`
      if (seen.has(k)) continue
      seen.add(k)
      const f = incl.get(k) ?? { ...loc, ms: 0 }
      f.ms += dt
      incl.set(k, f)
    }
  }
  return { incl: [...incl.values()].sort((a, b) => b.ms - a.ms), total, busy, special, fn: [...fn.values()].sort((a, b) => b.ms - a.ms), mod: [...mod].map(([module, ms]) => ({ module, ms })).sort((a, b) => b.ms - a.ms), requests, samples: samples.length }
}

const pct = (ms, of) => `${((100 * ms) / of).toFixed(1)}%`
const perReq = (ms, n) => (ms / n).toFixed(3)
function print(name, a, run) {
  console.log(`\n## ${name}: ${run.rps.toFixed(0)} req/s during the profile (${a.requests} requests${run.non2xx ? `, ${run.non2xx} non-2xx` : ''}${run.errors ? `, ${run.errors} errors` : ''}), ${a.samples} samples over ${(a.total / 1000).toFixed(2)} s`)
  console.log(`isolate busy ${(a.busy / 1000).toFixed(2)} s = ${perReq(a.busy, a.requests)} ms/req; idle ${pct(a.special['(idle)'], a.total)} of wall, GC ${pct(a.special['(garbage collector)'], a.busy)} of busy, (program) ${pct(a.special['(program)'], a.busy)} of busy`)
  console.log(`\ntop ${TOP} functions by self time (% of busy samples, ms/req)`)
  console.log('| # | self % | ms/req | function | location | source line |\n|---|---|---|---|---|---|')
  a.fn.slice(0, TOP).forEach((f, i) => console.log(`| ${i + 1} | ${pct(f.ms, a.busy)} | ${perReq(f.ms, a.requests)} | ${f.name} | ${f.where} | ${(f.snippet ?? '').replace(/\|/g, '\\|').replace(/`/g, "'")} |`))
  console.log(`\napp code by inclusive time (self + callees; % of busy, ms/req)`)
  console.log('| incl % | ms/req | function | location |\n|---|---|---|---|')
  for (const f of a.incl.slice(0, 15)) console.log(`| ${pct(f.ms, a.busy)} | ${perReq(f.ms, a.requests)} | ${f.name} | ${f.where} |`)
  console.log(`\nby module (self time; native frames counted for their JS caller's module)`)
  console.log('| module | self % | ms/req |\n|---|---|---|')
  for (const m of a.mod.slice(0, TOP)) console.log(`| ${m.module} | ${pct(m.ms, a.busy)} | ${perReq(m.ms, a.requests)} |`)
}
function diff(nameA, a, nameB, b) {
  console.log(`\n## ${nameB} − ${nameA}: ${perReq(b.busy, b.requests)} − ${perReq(a.busy, a.requests)} = ${(b.busy / b.requests - a.busy / a.requests).toFixed(3)} ms/req of isolate CPU`)
  const rows = (xa, xb, key) => {
    const m = new Map()
    for (const x of xa) m.set(key(x), { k: key(x), x, a: x.ms / a.requests, b: 0 })
    for (const x of xb) {
      const r = m.get(key(x)) ?? { k: key(x), x, a: 0, b: 0 }
      r.b = x.ms / b.requests
      m.set(key(x), r)
    }
    return [...m.values()].sort((p, q) => q.b - q.a - (p.b - p.a))
  }
  console.log('| module | Δ ms/req | ' + nameA + ' | ' + nameB + ' |\n|---|---|---|---|')
  for (const r of rows(a.mod, b.mod, (x) => x.module).slice(0, 15)) console.log(`| ${r.k} | ${(r.b - r.a).toFixed(3)} | ${r.a.toFixed(3)} | ${r.b.toFixed(3)} |`)
  console.log('| function | Δ ms/req | ' + nameA + ' | ' + nameB + ' |\n|---|---|---|---|')
  for (const r of rows(a.fn, b.fn, (x) => `${x.name} ${x.where}`).slice(0, 15)) console.log(`| ${r.k} | ${(r.b - r.a).toFixed(3)} | ${r.a.toFixed(3)} | ${r.b.toFixed(3)} |`)
}

// ---------------------------------------------------------------------------------------------
async function main() {
  ensureBenchDeps()
  const source = build()
  await loadMap()
  console.log(`# CPU profiles (${new Date().toISOString()}), ${source}; load average ${loadavg().map((x) => x.toFixed(2)).join(' ')}; ${SECONDS} s per case, ${CONNECTIONS} connections, sampling ${INTERVAL} µs`)
  const { mf, inspector, urls } = await startWorkerd()
  const results = {}
  try {
    // ADR 033: the control plane and every shard of app-bare's bindings (app-cold shares the same databases).
    const dbs = await openDbs(mf, 'app-bare')
    await migrate(dbs)
    const big = await seedBig(dbs)
    log(`seeded ${big.rows} rows (the school on shard ${big.shard})`)
    const host = `${BIG.slug}.localhost`
    const path = `/course-${COURSE_INDEX + 1}`
    const bypass = { Authorization: 'Bearer bench-no-page-cache' }
    const spec = {
      'course-bypass': { worker: 'app-bare', path, headers: bypass },
      'course-hit': { worker: 'app-bare', path, headers: {}, expectCache: 'hit' },
      'course-signed-in': { worker: 'app-bare', path, headers: { Cookie: big.cookie } },
      'course-cold': { worker: 'app-cold', path, headers: {}, expectCache: null },
      login: { worker: 'app-bare', path: '/login', headers: bypass },
    }
    mkdirSync(profDir, { recursive: true })
    const sessions = {}
    for (const c of cases) {
      const s = spec[c]
      const base = urls[s.worker]
      // warm-up: a few requests, then check the answer, then load
      for (let i = 0; i < 3; i++) await probe(base, host, s.path, s.headers)
      const check = await probe(base, host, s.path, s.headers)
      if (check.status !== 200) throw new Error(`${c}: ${s.path} answered ${check.status}: ${check.body.slice(0, 300)}`)
      if (s.expectCache === 'hit' && !String(check.cache).startsWith('hit')) throw new Error(`${c}: X-Page-Cache ${check.cache}, expected a hit`)
      if (s.expectCache === null && check.cache !== null) throw new Error(`${c}: X-Page-Cache ${check.cache} on app-cold`)
      if (c !== 'course-hit' && String(check.cache ?? '').startsWith('hit')) throw new Error(`${c}: unexpected page-cache hit`)
      if (WARMUP > 0) await autocannonRun(base, host, s.path, s.headers, WARMUP)
      sessions[s.worker] ??= await connect(inspector, s.worker)
      const cdp = sessions[s.worker]
      await cdp.send('Profiler.enable')
      await cdp.send('Profiler.setSamplingInterval', { interval: INTERVAL })
      await cdp.send('Profiler.start')
      const run = await autocannonRun(base, host, s.path, s.headers, SECONDS)
      const { profile } = await cdp.send('Profiler.stop')
      await cdp.send('Profiler.disable')
      const file = join(profDir, `${c}.cpuprofile`)
      writeFileSync(file, JSON.stringify(profile))
      const a = analyse(profile, run.requests)
      results[c] = a
      log(`${c}: ${run.rps.toFixed(0)} req/s, X-Page-Cache ${check.cache ?? '(none)'}, ${check.bytes} bytes; profile ${file}`)
      print(c, a, run)
    }
    for (const c of Object.values(sessions)) c.close()
    if (results['course-bypass'] && results['course-signed-in']) diff('course-bypass', results['course-bypass'], 'course-signed-in', results['course-signed-in'])
    if (results['course-bypass'] && results['course-cold']) diff('course-bypass', results['course-bypass'], 'course-cold', results['course-cold'])
    console.log(`\nload average after: ${loadavg().map((x) => x.toFixed(2)).join(' ')}`)
  } finally {
    await mf.dispose()
  }
}

main().catch((e) => {
  console.error(e)
  process.exit(1)
})
