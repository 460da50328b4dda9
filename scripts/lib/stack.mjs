// The local stack: every worker config, seeded D1, one `wrangler dev` process serving them all.
// Used by scripts/start.mjs (npm start) and tests/e2e/run.mjs.
import { spawn } from 'node:child_process'
import { createWriteStream, existsSync, readdirSync, readFileSync } from 'node:fs'
import { request } from 'node:http'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { bin, root, run } from './env.mjs'

const CONFIG_NAMES = ['wrangler.toml', 'wrangler.jsonc', 'wrangler.json']

/** wrangler.toml of the app first, then every workers/<name>/wrangler.* (picked up automatically). */
export function workerConfigs() {
  const configs = ['wrangler.toml']
  const dir = join(root, 'workers')
  if (existsSync(dir)) {
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (!entry.isDirectory()) continue
      const name = CONFIG_NAMES.find((n) => existsSync(join(dir, entry.name, n)))
      if (name) configs.push(`workers/${entry.name}/${name}`)
    }
  }
  return configs
}

/** Quiet, offline-friendly wrangler: no telemetry, no fetch of Request.cf from workers.cloudflare.com. */
export const wranglerEnv = {
  WRANGLER_SEND_METRICS: 'false',
  CLOUDFLARE_CF_FETCH_ENABLED: 'false',
}

export function isPortFree(port, host = '127.0.0.1') {
  return new Promise((resolvePromise) => {
    const server = createServer()
    server.once('error', () => resolvePromise(false))
    server.listen(port, host, () => server.close(() => resolvePromise(true)))
  })
}

export function freePort(host = '127.0.0.1') {
  return new Promise((resolvePromise, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, host, () => {
      const { port } = server.address()
      server.close(() => resolvePromise(port))
    })
  })
}

/** Apply migrations and seed the demo schools (idempotent). Output only shows on failure. */
export async function seed({ persistTo, platformHost, quiet = true } = {}) {
  const args = [join(root, 'scripts', 'seed.ts')]
  if (persistTo) args.push('--persist-to', persistTo)
  if (platformHost) args.push('--platform-host', platformHost)
  const code = await run(bin('tsx'), args, { env: wranglerEnv, quiet })
  return code === 0 ? migrateDevPeers({ persistTo, quiet }) : code
}

/**
 * The dev peers (workers/dev-peers) keep their state in their own D1 database: apply its
 * migrations to the same local state `wrangler dev` uses. Without --persist-to, wrangler would
 * pick workers/dev-peers/.wrangler/state; `wrangler dev` run from the root keeps every worker's
 * state in the root's .wrangler/state.
 */
export async function migrateDevPeers({ persistTo, quiet = true } = {}) {
  const config = join(root, 'workers', 'dev-peers', 'wrangler.toml')
  if (!existsSync(config)) return 0
  const args = ['d1', 'migrations', 'apply', 'PEERS_DB', '--local', '-c', config, '--persist-to', persistTo ?? join(root, '.wrangler', 'state')]
  // CI=true: no "apply these migrations?" prompt.
  const code = await run(bin('wrangler'), args, { env: { ...wranglerEnv, CI: 'true' }, quiet })
  const peerSeed = join(root, '.wrangler', 'seed-peers.sql')
  if (code !== 0 || !existsSync(peerSeed)) return code
  // The demo integrations' peer side (written by scripts/seed.ts): Stripe webhook endpoints.
  return run(bin('wrangler'), ['d1', 'execute', 'PEERS_DB', '--local', '-c', config, '--persist-to', persistTo ?? join(root, '.wrangler', 'state'), '--file', peerSeed], { env: { ...wranglerEnv, CI: 'true' }, quiet })
}

/**
 * `wrangler dev` with every worker config, in its own process group (so the whole tree —
 * wrangler, workerd, esbuild — can be stopped at once). `logFile` sends its output there
 * instead of the terminal.
 */
export function startWrangler({ port, persistTo, logFile, extraArgs = [] }) {
  const args = ['dev']
  for (const config of workerConfigs()) args.push('-c', config)
  args.push('--ip', '127.0.0.1', '--port', String(port), '--show-interactive-dev-session=false')
  if (persistTo) args.push('--persist-to', persistTo)
  args.push(...extraArgs)
  const log = logFile ? createWriteStream(logFile) : null
  const child = spawn(bin('wrangler'), args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', log ? 'pipe' : 'inherit', log ? 'pipe' : 'inherit'],
    env: { ...process.env, ...wranglerEnv, ...(log ? { FORCE_COLOR: '0', NO_COLOR: '1' } : {}) },
  })
  if (log) {
    child.stdout.pipe(log)
    child.stderr.pipe(log)
  }
  child.exited = new Promise((resolvePromise) => child.once('exit', (code, signal) => resolvePromise({ code, signal })))
  child.args = args
  // Never leave workerd behind, however this process ends (removed by stopProcessGroup).
  child.killOnExit = () => killGroup(child.pid, 'SIGKILL')
  process.once('exit', child.killOnExit)
  return child
}

/**
 * The Bunny Stream peer (scripts/peers/bunny-stream-peer-cli.ts, through tsx) in its own process
 * group, killed with us. Resolves once the child printed its "ready" line (so another process
 * already on the port cannot pass for it) and `/_peer/health` answers; rejects if it exits first
 * (e.g. the port is taken). `storageDir` keeps uploads across restarts; without it a temp dir.
 */
export async function startBunnyPeer({ port, webhookUrl, storageDir, logFile, transcodeMs, timeoutMs = 30_000 }) {
  const log = logFile ? createWriteStream(logFile) : null
  const env = { ...process.env, BUNNY_PEER_PORT: String(port) }
  if (webhookUrl) env.BUNNY_PEER_WEBHOOK_URL = webhookUrl
  if (storageDir) env.BUNNY_PEER_DIR = storageDir
  if (transcodeMs !== undefined) env.BUNNY_PEER_TRANSCODE_MS = String(transcodeMs)
  const child = spawn(bin('tsx'), [join(root, 'scripts', 'peers', 'bunny-stream-peer-cli.ts')], {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env,
  })
  let ready = false
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d) => {
    if (!ready) {
      stdout += d
      ready = /^bunny-stream-peer ready /m.test(stdout)
    }
  })
  child.stderr.on('data', (d) => (stderr = (stderr + d).slice(-2000)))
  child.stdout.pipe(log ?? process.stdout)
  child.stderr.pipe(log ?? process.stderr)
  child.exited = new Promise((resolvePromise) => child.once('exit', (code, signal) => resolvePromise({ code, signal })))
  child.killOnExit = () => killGroup(child.pid, 'SIGKILL')
  process.once('exit', child.killOnExit)
  child.origin = `http://127.0.0.1:${port}`

  let exited = null
  child.exited.then((e) => (exited = e))
  const deadline = Date.now() + timeoutMs
  let last = 'no ready line yet'
  while (Date.now() < deadline) {
    if (exited) {
      await stopProcessGroup(child, 0)
      const reason = stderr.trim().split('\n').at(-1)
      throw new Error(`Bunny Stream peer exited early (code ${exited.code}, signal ${exited.signal})${reason ? `: ${reason}` : ''}`)
    }
    if (ready) {
      try {
        const res = await httpGet(port, '127.0.0.1', '/_peer/health', 2000)
        if (res.status === 200) return child
        last = `HTTP ${res.status}`
      } catch (error) {
        last = error.message
      }
    }
    await sleep(100)
  }
  await stopProcessGroup(child)
  throw new Error(`Bunny Stream peer did not answer on port ${port} within ${timeoutMs / 1000}s (last: ${last})`)
}

function killGroup(pid, signal) {
  try {
    process.kill(-pid, signal)
    return true
  } catch {
    return false // ESRCH: nothing left in the group
  }
}

const groupAlive = (pid) => killGroup(pid, 0)
const sleep = (ms) => new Promise((r) => setTimeout(r, ms))

/** SIGTERM to the process group, SIGKILL after `graceMs`; resolves when nothing of it is left. */
export async function stopProcessGroup(child, graceMs = 5000) {
  if (!child?.pid) return
  killGroup(child.pid, 'SIGTERM')
  const deadline = Date.now() + graceMs
  while (groupAlive(child.pid) && Date.now() < deadline) await sleep(100)
  if (groupAlive(child.pid)) {
    killGroup(child.pid, 'SIGKILL')
    const hard = Date.now() + 5000
    while (groupAlive(child.pid) && Date.now() < hard) await sleep(100)
  }
  if (child.killOnExit) process.removeListener('exit', child.killOnExit)
}

/** GET through 127.0.0.1 with an explicit Host header (no DNS, works for *.localhost and *.test). */
export function httpGet(port, host, path = '/', timeoutMs = 5000) {
  return new Promise((resolvePromise, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method: 'GET', headers: { Host: `${host}:${port}` }, timeout: timeoutMs }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (body += d))
      res.on('end', () => resolvePromise({ status: res.statusCode, headers: res.headers, body }))
    })
    req.on('timeout', () => req.destroy(new Error('timeout')))
    req.on('error', reject)
    req.end()
  })
}

/** Wait until the platform home page answers 200 (the worker, D1 and the build are all up). */
export async function waitForReady({ port, child, timeoutMs = 90_000, host = 'localhost' }) {
  const deadline = Date.now() + timeoutMs
  let last = 'no answer'
  let exited = null
  child?.exited.then((e) => (exited = e))
  while (Date.now() < deadline) {
    if (exited) throw new Error(`wrangler dev exited early (code ${exited.code}, signal ${exited.signal})`)
    try {
      const res = await httpGet(port, host, '/')
      if (res.status === 200) return
      last = `HTTP ${res.status}`
    } catch (error) {
      last = error.message
    }
    await sleep(300)
  }
  throw new Error(`wrangler dev did not answer on port ${port} within ${timeoutMs / 1000}s (last: ${last})`)
}

/** The demo schools and operators, as declared in tenants/*.json. */
export function loadDemo() {
  const dir = join(root, 'tenants')
  const tenants = readdirSync(dir)
    .filter((f) => f.endsWith('.json') && f !== 'operators.json')
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
  const operatorsFile = join(dir, 'operators.json')
  const operators = existsSync(operatorsFile) ? JSON.parse(readFileSync(operatorsFile, 'utf8')) : []
  return { tenants, operators }
}
