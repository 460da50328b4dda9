#!/usr/bin/env node
// End-to-end suite: a real Chromium against the real stack.
//   node tests/e2e/run.mjs [name-filter …]      (npm run test:e2e)
// Picks a free port, seeds a fresh temporary D1 (--persist-to), starts the Bunny Stream peer (its
// own free port and temp storage) and every worker's deployable bundle on one workerd
// (scripts/lib/workerd-stack.mjs, ADR 022), runs tests/e2e/*.e2e.ts with node:test (through tsx,
// two files at a time: every test makes its own data; E2E_PORT, BUNNY_PEER_ORIGIN and
// E2E_SERVER_LOG in their env), then stops the stack and removes the temporary directories.
// No retries: a test that passes only sometimes is a bug to find. Writes test-results/e2e-summary.json.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { bold, CHROMIUM, dim, green, red, root, run, step } from '../../scripts/lib/env.mjs'
import { freePort, seed, startBunnyPeer, stopProcessGroup, waitForReady, workerConfigs } from '../../scripts/lib/stack.mjs'
import { startWorkerdStack } from '../../scripts/lib/workerd-stack.mjs'

const e2eDir = join(root, 'tests', 'e2e')
const resultsDir = join(root, 'test-results')
const summaryFile = join(resultsDir, 'e2e-summary.json')
const tapFile = join(resultsDir, 'e2e.tap')
const serverLog = join(resultsDir, 'e2e-server.log')
const peerLog = join(resultsDir, 'e2e-bunny-peer.log')
const screenshotsDir = join(resultsDir, 'e2e')

const filters = process.argv.slice(2)
const files = readdirSync(e2eDir)
  .filter((f) => f.endsWith('.e2e.ts'))
  .filter((f) => filters.length === 0 || filters.some((x) => f.includes(x)))
  .sort()
  .map((f) => join(e2eDir, f))

rmSync(summaryFile, { force: true })
rmSync(screenshotsDir, { recursive: true, force: true })
mkdirSync(screenshotsDir, { recursive: true })

const writeSummary = (passed, failed, extra = {}) => writeFileSync(summaryFile, JSON.stringify({ passed, failed, ...extra }, null, 2))

if (files.length === 0) {
  console.error(red(`No e2e test files match ${filters.join(', ')}`))
  writeSummary(0, 1)
  process.exit(1)
}
if (!existsSync(CHROMIUM)) {
  console.error(red(`Chromium not found at ${CHROMIUM}. Install it: apt-get install -y chromium (or set CHROMIUM_PATH).`))
  writeSummary(0, 1)
  process.exit(1)
}
if (!existsSync(join(root, 'build', 'worker', 'server.js'))) {
  step('No build yet: npm run build')
  if ((await run('npm', ['run', 'build', '--silent'])) !== 0) process.exit(1)
}

const persistTo = mkdtempSync(join(tmpdir(), 'coursefront-e2e-'))
const peerDir = mkdtempSync(join(tmpdir(), 'coursefront-e2e-bunny-'))
let server = null
let peer = null
let cleaning = null

function cleanup() {
  cleaning ??= (async () => {
    await Promise.all([server?.stop(), peer && stopProcessGroup(peer)])
    rmSync(persistTo, { recursive: true, force: true })
    rmSync(peerDir, { recursive: true, force: true })
  })()
  return cleaning
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, async () => {
    await cleanup()
    process.exit(130)
  })
}

function fail(message) {
  console.error(red(`✖ ${message}`))
  if (existsSync(serverLog)) {
    const lines = readFileSync(serverLog, 'utf8')
      .trimEnd()
      .split('\n')
      .filter((l) => !/ (GET|HEAD) \/(assets\/|favicon|__manifest)/.test(l))
    console.error(dim(`--- last lines of ${relative(root, serverLog)} ---\n${lines.slice(-40).join('\n')}`))
  }
}

let exitCode = 1
try {
  const port = await freePort()
  step(`Seeding a fresh D1 in ${persistTo}`)
  if ((await seed({ persistTo })) !== 0) throw new Error('seeding failed')

  let peerPort = await freePort()
  // Both ports are only reserved once bound: never hand the same one out twice.
  while (peerPort === port) peerPort = await freePort()
  const peerOrigin = `http://127.0.0.1:${peerPort}`
  step(`Starting the Bunny Stream peer on ${peerOrigin}`)
  peer = await startBunnyPeer({ port: peerPort, webhookUrl: `http://media.localhost:${port}/webhooks/bunny`, storageDir: peerDir, logFile: peerLog })

  step(`Starting every worker's bundle on one workerd at 127.0.0.1:${port} (${workerConfigs().join(', ')})`)
  rmSync(serverLog, { force: true })
  const t0 = Date.now()
  // The app passes the peer's origin on to the media worker.
  server = await startWorkerdStack({ port, persistTo, logFile: serverLog, appVars: { BUNNY_PEER_ORIGIN: peerOrigin } })
  await waitForReady({ port, timeoutMs: 60_000 })
  console.log(dim(`  ready in ${((Date.now() - t0) / 1000).toFixed(1)}s; log: ${relative(root, serverLog)}`))

  const concurrency = Number(process.env.E2E_CONCURRENCY || 2)
  step(`Running ${files.length} e2e file(s) in Chromium, ${concurrency} at a time`)
  const code = await new Promise((resolvePromise) => {
    // The timeout bounds each test AND each file as a whole (node:test runs a file as one test):
    // issue 25's provider files take about two minutes on CI's two cores.
    const args = ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-timeout=300000', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', `--test-reporter-destination=${tapFile}`, ...files]
    const child = spawn(process.execPath, args, {
      cwd: root,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, E2E_PORT: String(port), BUNNY_PEER_ORIGIN: peerOrigin, E2E_SCREENSHOTS_DIR: screenshotsDir, E2E_SERVER_LOG: serverLog, CHROMIUM_PATH: CHROMIUM },
    })
    child.on('exit', (c, signal) => resolvePromise(c ?? (signal ? 128 : 1)))
  })
  const tap = existsSync(tapFile) ? readFileSync(tapFile, 'utf8') : ''
  const count = (name) => Number(new RegExp(`^# ${name} (\\d+)$`, 'm').exec(tap)?.[1] ?? 0)
  const passed = count('pass')
  const failed = count('fail') + count('cancelled')
  // A crash before any test reported still has to count as a failure.
  const failedTotal = code !== 0 && failed === 0 ? 1 : failed
  writeSummary(passed, failedTotal, { files: files.map((f) => relative(root, f)), port, bunnyPeerPort: peerPort, seconds: Math.round((Date.now() - t0) / 1000) })
  console.log(`\n${bold('e2e:')} ${green(`${passed} passed`)}, ${failedTotal ? red(`${failedTotal} failed`) : `${failedTotal} failed`}`)
  if (code !== 0) fail(`e2e tests failed (screenshots of the failing pages: ${relative(root, screenshotsDir)}/)`)
  exitCode = code === 0 ? 0 : 1
} catch (error) {
  fail(error instanceof Error ? error.message : String(error))
  if (!existsSync(summaryFile)) writeSummary(0, 1)
  exitCode = 1
} finally {
  await cleanup()
}
process.exit(exitCode)
