// Local HTTP benchmark of the app worker under `wrangler dev` (workerd), per page type.
//   node bench/http-bench.mjs [--seconds 10] [--concurrency 8]
// Starts its own stack on a free port with a throw-away seeded D1, so it never touches your data.
// Load generator and workerd share this machine's cores: read the numbers as relative costs
// (page vs static file), not as production capacity.
import { mkdtempSync, rmSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort, seed, startWrangler, stopProcessGroup, waitForReady } from '../scripts/lib/stack.mjs'

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name)
  return i === -1 ? fallback : Number(process.argv[i + 1])
}
const SECONDS = arg('--seconds', 10)
const CONCURRENCY = arg('--concurrency', 8)
const WARMUP_MS = 2000

const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY })

function hit(port, host, path, headers = {}) {
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const req = request({ host: '127.0.0.1', port, path, agent, headers: { Host: `${host}:${port}`, ...headers } }, (res) => {
      res.resume()
      res.on('end', () => resolve({ status: res.statusCode, ms: performance.now() - started, headers: res.headers }))
    })
    req.on('error', reject)
    req.end()
  })
}

async function measure(port, target) {
  const end = Date.now() + WARMUP_MS
  while (Date.now() < end) await hit(port, target.host, target.path, target.headers)
  const latencies = []
  const statuses = new Map()
  const stopAt = performance.now() + SECONDS * 1000
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (performance.now() < stopAt) {
        const r = await hit(port, target.host, target.path, target.headers)
        latencies.push(r.ms)
        statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1)
      }
    }),
  )
  latencies.sort((a, b) => a - b)
  const pct = (p) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]
  return {
    name: target.name,
    requests: latencies.length,
    rps: Math.round(latencies.length / SECONDS),
    p50: pct(50).toFixed(1),
    p99: pct(99).toFixed(1),
    statuses: [...statuses].map(([s, n]) => `${s}×${n}`).join(' '),
  }
}

async function loginCookie(port) {
  const body = new URLSearchParams({ email: 'sam@example.com', password: 'sam-code-123' }).toString()
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port,
        path: '/login',
        method: 'POST',
        headers: { Host: `code-academy.localhost:${port}`, 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', 'Content-Length': Buffer.byteLength(body) },
      },
      (res) => {
        res.resume()
        const cookie = res.headers['set-cookie']?.[0]?.split(';')[0]
        cookie ? resolve(cookie) : reject(new Error(`login failed: ${res.statusCode}`))
      },
    )
    req.on('error', reject)
    req.end(body)
  })
}

const persistTo = mkdtempSync(join(tmpdir(), 'coursefront-bench-'))
const port = await freePort()
let child
try {
  if ((await seed({ persistTo })) !== 0) throw new Error('seed failed')
  child = startWrangler({ port, persistTo, logFile: join(persistTo, 'wrangler.log') })
  await waitForReady({ port, child })
  const cookie = await loginCookie(port)
  const targets = [
    { name: 'static asset (no worker code)', host: 'localhost', path: '/favicon.svg' },
    { name: 'unknown host → 404 (negative cache)', host: 'nobody.localhost', path: '/' },
    { name: 'platform landing', host: 'localhost', path: '/' },
    { name: 'school home, subdomain (warm tenant cache)', host: 'code-academy.localhost', path: '/' },
    { name: 'school home, custom domain', host: 'code-academy.test', path: '/' },
    { name: 'login page', host: 'akademia-kasi.localhost', path: '/login' },
    { name: 'student panel, signed in (2 D1 queries)', host: 'code-academy.localhost', path: '/panel', headers: { Cookie: cookie } },
  ]
  const rows = []
  for (const target of targets) rows.push(await measure(port, target))
  console.log(`\n${SECONDS}s per row, ${CONCURRENCY} concurrent keep-alive connections, after ${WARMUP_MS / 1000}s warm-up\n`)
  console.log('| page | requests | req/s | p50 ms | p99 ms | statuses |')
  console.log('|---|---|---|---|---|---|')
  for (const r of rows) console.log(`| ${r.name} | ${r.requests} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.statuses} |`)
} finally {
  if (child) await stopProcessGroup(child)
  agent.destroy()
  rmSync(persistTo, { recursive: true, force: true })
}
