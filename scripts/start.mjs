#!/usr/bin/env node
// npm start: install (if needed) → build → migrate + seed the local D1 → the Bunny Stream peer on
// 127.0.0.1:8788 (BUNNY_PEER_PORT overrides) → every worker's bundle on one workerd
// (scripts/lib/workerd-stack.mjs, the same stack the e2e suite runs; ADR 022) on 127.0.0.1:8787
// (PORT overrides) → banner with URLs and demo logins. After a code change, restart it (it builds).
// Ctrl-C stops everything. D1 state stays in .wrangler/state and uploaded videos in
// .wrangler/bunny-peer, so a restart keeps your data.
import { mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { bold, cyan, dim, ensureDependencies, green, red, root, run, step, yellow } from './lib/env.mjs'
import { isPortFree, loadDemo, seed, startBunnyPeer, stopProcessGroup, waitForReady, workerConfigs } from './lib/stack.mjs'
import { startWorkerdStack } from './lib/workerd-stack.mjs'

const port = Number(process.env.PORT || 8787)
if (!Number.isInteger(port) || port <= 0 || port > 65535) fail(`PORT must be a port number, got "${process.env.PORT}"`)
const peerPort = Number(process.env.BUNNY_PEER_PORT || 8788)
if (!Number.isInteger(peerPort) || peerPort <= 0 || peerPort > 65535 || peerPort === port) fail(`BUNNY_PEER_PORT must be a port number other than ${port}, got "${process.env.BUNNY_PEER_PORT}"`)
const peerOrigin = `http://127.0.0.1:${peerPort}`
const peerLog = '.wrangler/bunny-peer.log'

function fail(message) {
  console.error(red(`\n✖ ${message}`))
  process.exit(1)
}

if (!(await ensureDependencies())) fail('npm install failed')

if (!(await isPortFree(port))) fail(`Port ${port} on 127.0.0.1 is already in use. Stop whatever uses it, or run: PORT=8789 npm start`)
if (!(await isPortFree(peerPort))) fail(`Port ${peerPort} on 127.0.0.1 (the Bunny Stream peer) is already in use. Stop whatever uses it, or run: BUNNY_PEER_PORT=8790 npm start`)

step('Building (npm run build)')
if ((await run('npm', ['run', 'build', '--silent'])) !== 0) fail('Build failed')

step('Applying migrations and seeding demo schools (.wrangler/state)')
if ((await seed()) !== 0) fail('Seeding failed')

step(`Starting the Bunny Stream peer on ${peerOrigin} (videos in .wrangler/bunny-peer)`)
mkdirSync(join(root, '.wrangler'), { recursive: true })
let peer
try {
  peer = await startBunnyPeer({
    port: peerPort,
    // Webhooks reach the media host through the app, like Bunny's would reach media.coursefront.com.
    webhookUrl: `http://media.${platformHost()}:${port}/webhooks/bunny`,
    storageDir: join(root, '.wrangler', 'bunny-peer'),
    logFile: join(root, peerLog),
  })
} catch (error) {
  fail(`${error.message} (log: ${peerLog})`)
}

const configs = workerConfigs()
const serverLog = '.wrangler/server.log'
step(`Starting every worker on one workerd: ${configs.join(', ')}`)
let stack
try {
  // State in .wrangler/state, where the seed (wrangler d1/r2 --local) wrote it.
  stack = await startWorkerdStack({ port, persistTo: join(root, '.wrangler', 'state'), logFile: join(root, serverLog), appVars: { BUNNY_PEER_ORIGIN: peerOrigin }, echo: true })
} catch (error) {
  await stopProcessGroup(peer)
  fail(`${error.message} (log: ${serverLog})`)
}

let stopping = false
async function shutdown(code) {
  if (stopping) return
  stopping = true
  console.log(dim('\nStopping workerd and the Bunny Stream peer …'))
  await Promise.all([stack.stop(), stopProcessGroup(peer)])
  process.exit(code)
}
process.on('SIGINT', () => shutdown(130))
process.on('SIGTERM', () => shutdown(143))
process.on('SIGHUP', () => shutdown(129))
peer.exited.then(({ code, signal }) => {
  if (stopping) return
  console.error(red(`\nThe Bunny Stream peer stopped (code ${code ?? '-'}${signal ? `, signal ${signal}` : ''}); see ${peerLog}.`))
  shutdown(code || 1)
})

try {
  await waitForReady({ port, timeoutMs: 60_000 })
} catch (error) {
  console.error(red(`\n✖ ${error.message}`))
  await shutdown(1)
}

printBanner()

function platformHost() {
  try {
    const toml = readFileSync(join(root, 'wrangler.toml'), 'utf8')
    return /^\s*PLATFORM_HOST\s*=\s*"([^"]+)"/m.exec(toml)?.[1] ?? 'localhost'
  } catch {
    return 'localhost'
  }
}

function printBanner() {
  const host = platformHost()
  const { tenants, operators } = loadDemo()
  const url = (h, path = '') => `http://${h}:${port}${path}`
  const row = (label, value) => `    ${label.padEnd(18)}${value}`
  const login = (u) => `    ${(u.role ?? 'operator').padEnd(9)}${u.name.padEnd(20)}${bold(u.email)}  /  ${bold(u.password)}`
  const customHosts = tenants.flatMap((t) => t.customDomains ?? [])
  const lines = [
    '',
    green(bold(`  ✔ Coursefront is running on 127.0.0.1:${port}`)) + dim('   (Ctrl-C stops everything)'),
    dim(`    workers: ${configs.join(', ')}; log: ${serverLog}`),
    '',
    bold('  Platform'),
    row('Home', url(host, '/')),
    row('Creator signup', url(host, '/signup')),
    row('Operator console', url(host, '/operator')),
    row('Dev mail viewer', url(host, '/dev/mail')),
    row('Dev DNS', url(host, '/dev/dns')),
    row('Bunny Stream peer', `${peerOrigin}  ${dim(`(video uploads and player; log ${peerLog})`)}`),
    '',
  ]
  for (const t of tenants) {
    lines.push(bold(`  ${t.name}`) + dim(` (${t.language}, ${t.currency})`))
    lines.push(row('Subdomain', url(`${t.slug}.${host}`, '/')))
    for (const d of t.customDomains ?? []) lines.push(row('Custom domain', url(d, '/')))
    for (const page of t.subpages ?? []) lines.push(row('Sales page', `${url(`${t.slug}.${host}`, `/p/${page.slug}`)}  ${dim(`(edit: /home/subpages)`)}`))
    for (const u of t.users) lines.push(login(u))
    lines.push('')
  }
  if (operators.length) {
    lines.push(bold('  Operator logins') + dim(` (${url(host, '/operator/login')})`))
    for (const o of operators) lines.push(`${login({ ...o, role: `op:${o.role}` })}  ${dim('2FA key')} ${o.totpKey}`)
    lines.push(dim('    Add the 2FA key to an authenticator app (TOTP, 30 s, 6 digits); the console asks for its code after the password.'))
    lines.push('')
  }
  if (customHosts.length) {
    const example = url(customHosts[0], '/')
    lines.push(bold('  Custom domains in a browser') + dim(' (*.localhost already resolves to 127.0.0.1 in Chrome and Firefox)'))
    lines.push(`    ${cyan(`chromium --user-data-dir=/tmp/coursefront-chromium --host-resolver-rules="MAP *.test 127.0.0.1, MAP *.localhost 127.0.0.1" ${example}`)}`)
    lines.push(dim('    or add this line to /etc/hosts:'))
    lines.push(`    ${cyan(`127.0.0.1 ${customHosts.join(' ')}`)}`)
    lines.push(dim('    or from a shell:'))
    lines.push(`    ${cyan(`curl -H 'Host: ${customHosts[0]}:${port}' http://127.0.0.1:${port}/`)}`)
    lines.push('')
  }
  lines.push(yellow(`  Data lives in .wrangler/state and .wrangler/bunny-peer (kept across restarts). Reset: rm -rf .wrangler/state .wrangler/bunny-peer && npm start`))
  lines.push('')
  console.log(lines.join('\n'))
}
