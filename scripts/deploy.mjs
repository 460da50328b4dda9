#!/usr/bin/env node
// npm run deploy (issue 26 §2, docs/deploy.md): every worker's [env.production] to Cloudflare.
// Reads what the account already has, creates only what is missing (D1 databases, R2 bucket and its
// CORS rules, queues and dead-letter queues, the SaaS zone's records and fallback origin), applies
// the migrations of every database, deploys the workers in dependency order and lists the secrets
// still unset. Re-running it is safe: what exists is left alone.
//
//   npm run deploy -- --dry-run   the plan only: no account, no network, nothing assumed to exist
//
// The planning rules are pure, in scripts/lib/deploy-plan.mjs. The real D1 ids go into a generated
// config per worker, `<config dir>/.wrangler/production/wrangler.json` (git ignores .wrangler/),
// written fresh from the account on every run: the committed configs never change.
import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { z } from 'zod'
import { DEVELOPMENT_ONLY_WORKERS, ORIGINLESS_AAAA, environmentView, generatedConfig, planDeploy, readConfigs } from './lib/deploy-plan.mjs'
import { bin, bold, dim, green, red, root, yellow } from './lib/env.mjs'

const API = 'https://api.cloudflare.com/client/v4'
const args = process.argv.slice(2)
const dryRun = args.includes('--dry-run')
if (args.includes('--help') || args.some((a) => a !== '--dry-run')) {
  console.log('Usage: npm run deploy [-- --dry-run]\n  Needs CLOUDFLARE_API_TOKEN and CLOUDFLARE_ACCOUNT_ID (and CLOUDFLARE_ZONE_ID, or a token that may read the zone). See docs/deploy.md.')
  process.exit(args.includes('--help') ? 0 : 2)
}

// ── wrangler and the Cloudflare API ────────────────────────────────────────────────────────────

/** Run wrangler; resolves to { code, output }. stdin is closed: wrangler then skips its confirmations. */
function wrangler(argv, { quiet = false } = {}) {
  if (!quiet) console.log(dim(`  $ wrangler ${argv.join(' ')}`))
  return new Promise((done) => {
    const child = spawn(bin('wrangler'), argv, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, WRANGLER_SEND_METRICS: 'false', FORCE_COLOR: '0' } })
    let output = ''
    const keep = (d) => {
      output += d
      if (!quiet) process.stdout.write(dim(String(d)))
    }
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    child.on('error', (e) => done({ code: 127, output: e.message }))
    child.on('exit', (code) => done({ code: code ?? 1, output }))
  })
}

async function mustWrangler(argv) {
  const { code, output } = await wrangler(argv)
  if (code !== 0) throw new Error(`wrangler ${argv.join(' ')} failed (${code})${output ? '' : ': no output'}`)
  return output
}

const Envelope = z.object({
  success: z.boolean(),
  errors: z.array(z.object({ code: z.number(), message: z.string() })).default([]),
  result: z.unknown(),
  result_info: z.object({ page: z.number().optional(), total_pages: z.number().optional(), cursor: z.string().optional() }).partial().nullish(),
})

/** One Cloudflare API call; `allow` lists HTTP statuses that mean "not there" (resolves to null). */
async function cf(method, path, { body, allow = [] } = {}) {
  const response = await fetch(`${API}${path}`, {
    method,
    headers: { authorization: `Bearer ${process.env.CLOUDFLARE_API_TOKEN}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  })
  if (allow.includes(response.status)) return null
  const parsed = Envelope.safeParse(await response.json().catch(() => null))
  if (!parsed.success) throw new Error(`${method} ${path}: HTTP ${response.status}, not a Cloudflare API answer`)
  if (!parsed.data.success) throw new Error(`${method} ${path}: ${parsed.data.errors.map((e) => `${e.code} ${e.message}`).join('; ') || `HTTP ${response.status}`}`)
  return parsed.data
}

const D1List = z.array(z.object({ uuid: z.string(), name: z.string() }))
const Buckets = z.object({ buckets: z.array(z.object({ name: z.string() })) })
const Cors = z.object({ rules: z.array(z.unknown()) })
const Queues = z.array(z.object({ queue_name: z.string() }))
const Records = z.array(z.object({ name: z.string() }))
const Fallback = z.object({ origin: z.string(), status: z.string().optional() })
const Secrets = z.array(z.object({ name: z.string() }))
const Zones = z.array(z.object({ id: z.string(), name: z.string() }))

/** What the account already has, for everything the plan may create. */
async function readAccount({ accountId, zoneId, buckets, hosts, workers }) {
  const d1 = await wrangler(['d1', 'list', '--json'], { quiet: true })
  if (d1.code !== 0) throw new Error(`wrangler d1 list --json failed:\n${d1.output}`)
  const databases = D1List.parse(JSON.parse(d1.output.slice(d1.output.indexOf('['))))

  const bucketNames = []
  for (let cursor = ''; ; ) {
    const page = await cf('GET', `/accounts/${accountId}/r2/buckets?per_page=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)
    bucketNames.push(...Buckets.parse(page.result).buckets.map((b) => b.name))
    cursor = page.result_info?.cursor ?? ''
    if (!cursor) break
  }
  const cors = {}
  for (const bucket of buckets.filter((b) => bucketNames.includes(b))) {
    // A bucket without CORS rules answers 404.
    const answer = await cf('GET', `/accounts/${accountId}/r2/buckets/${bucket}/cors`, { allow: [404] })
    cors[bucket] = answer ? Cors.parse(answer.result).rules : null
  }

  const queues = []
  for (let page = 1; ; page++) {
    const answer = await cf('GET', `/accounts/${accountId}/queues?page=${page}&per_page=100`)
    const names = Queues.parse(answer.result ?? []).map((q) => q.queue_name)
    queues.push(...names)
    if (names.length < 100 || page >= (answer.result_info?.total_pages ?? page)) break
  }

  const dnsRecords = []
  for (const host of hosts) {
    const answer = await cf('GET', `/zones/${zoneId}/dns_records?name=${encodeURIComponent(host)}`)
    if (Records.parse(answer.result).length > 0) dnsRecords.push(host)
  }
  // No fallback origin yet: the API answers an error (404 or an envelope with success false).
  const fallback = await cf('GET', `/zones/${zoneId}/custom_hostnames/fallback_origin`, { allow: [404] }).catch(() => null)
  const fallbackOrigin = fallback ? Fallback.safeParse(fallback.result).data ?? null : null

  const secrets = {}
  for (const name of workers) {
    // A worker that does not exist yet (404) has no secrets.
    const answer = await cf('GET', `/accounts/${accountId}/workers/scripts/${name}/secrets`, { allow: [404] })
    secrets[name] = answer ? Secrets.parse(answer.result).map((s) => s.name) : []
  }
  return { databases, buckets: bucketNames, cors, queues, dnsRecords, fallbackOrigin, secrets }
}

async function zoneIdOf(zone) {
  if (process.env.CLOUDFLARE_ZONE_ID) return process.env.CLOUDFLARE_ZONE_ID
  const answer = await cf('GET', `/zones?name=${encodeURIComponent(zone)}`)
  const found = Zones.parse(answer.result).find((z) => z.name === zone)
  if (!found) throw new Error(`the token sees no zone ${zone}: add the zone to the account or set CLOUDFLARE_ZONE_ID`)
  return found.id
}

// ── printing ───────────────────────────────────────────────────────────────────────────────────

const PHASES = { d1: 'D1 databases', r2: 'R2', queues: 'Queues', saas: 'Cloudflare for SaaS', migrations: 'Migrations', deploy: 'Workers (dependency order)' }
const VERB = { create: 'create', set: 'set', apply: 'apply', deploy: 'deploy', blocked: 'deploy', exists: 'exists' }

function printPlan(plan, { dry }) {
  for (const [phase, title] of Object.entries(PHASES)) {
    const steps = plan.steps.filter((s) => s.phase === phase)
    if (steps.length === 0) continue
    console.log(`\n${bold(title)}`)
    for (const s of steps) {
      if (s.action === 'exists') {
        console.log(`  ${dim(`exists       ${s.what}`)}`)
        continue
      }
      const verb = `${dry ? 'would ' : ''}${VERB[s.action]}`.padEnd(12)
      const after = s.after?.length ? dim(` after ${s.after.join(', ')}`) : ''
      // A blocked dependency is already shown on its own line: name only what this worker itself lacks.
      const own = (s.needs ?? []).filter((n) => !n.startsWith('worker '))
      const needs = own.length ? yellow(` — needs ${own.join(', ')}`) : s.needs?.length ? yellow(' — waits for the workers above') : ''
      console.log(`  ${s.action === 'blocked' && !dry ? yellow(verb) : green(verb)} ${s.what}${after}${needs}`)
    }
  }
  const unset = plan.secrets.filter((s) => !s.set)
  console.log(`\n${bold('Secrets still unset')} ${dim('(wrangler secret put NAME --env production -c CONFIG)')}`)
  if (unset.length === 0) console.log(`  ${green('none')}`)
  for (const s of unset) console.log(`  ${s.required ? red('required') : dim('optional')} ${s.worker.padEnd(22)} ${s.name.padEnd(32)} ${dim(s.configPath)}`)
}

// ── run ────────────────────────────────────────────────────────────────────────────────────────

const configs = await readConfigs(root)
const views = configs.map((c) => environmentView(c))
const corsRules = {}
for (const view of views) {
  const file = join(view.dir, 'r2-cors.json')
  if (!existsSync(file) || DEVELOPMENT_ONLY_WORKERS.includes(view.name)) continue
  // r2-cors.json next to a config: the CORS rules of every bucket that config binds (wrangler's --file format).
  const { rules } = Cors.parse(JSON.parse(readFileSync(file, 'utf8')))
  for (const b of view.r2) corsRules[b.bucket] = rules
}
const corsFileOf = (bucket) => join(views.find((v) => v.r2.some((b) => b.bucket === bucket) && existsSync(join(v.dir, 'r2-cors.json'))).dir, 'r2-cors.json')

if (dryRun) {
  const plan = planDeploy({ views, corsRules, root })
  console.log(bold('Deploy plan (dry run: nothing is read from or sent to Cloudflare; nothing is assumed to exist)'))
  printPlan(plan, { dry: true })
  console.log(`\n${dim('Before the migrations a real run builds (npm run build): the app bundle wraps build/server and serves build/client.')}`)
  if (plan.problems.length > 0) {
    console.error(`\n${red('✖ the production configs need fixing first:')}\n${plan.problems.map((p) => `  - ${p}`).join('\n')}`)
    process.exit(1)
  }
  console.log(`\n${dim('D1 ids go into <config dir>/.wrangler/production/wrangler.json (generated each run, ignored by git).')}`)
  process.exit(0)
}

for (const name of ['CLOUDFLARE_API_TOKEN', 'CLOUDFLARE_ACCOUNT_ID']) {
  if (!process.env[name]) {
    console.error(red(`✖ ${name} is not set (docs/deploy.md: prerequisites). \`npm run deploy -- --dry-run\` shows the plan without an account.`))
    process.exit(1)
  }
}

try {
  const accountId = process.env.CLOUDFLARE_ACCOUNT_ID
  const firstLook = planDeploy({ views, corsRules, root })
  if (firstLook.problems.length > 0) throw new Error(`the production configs need fixing first:\n${firstLook.problems.map((p) => `  - ${p}`).join('\n')}`)
  const zoneId = await zoneIdOf(firstLook.saas.zone)
  const known = { accountId, zoneId }
  const read = () =>
    readAccount({
      accountId,
      zoneId,
      buckets: Object.keys(corsRules),
      hosts: firstLook.saas.hosts,
      workers: firstLook.order,
    })
  let account = await read()
  const plan = planDeploy({ views, account, corsRules, known, root })
  console.log(bold(`Deploy plan (account ${accountId}, zone ${firstLook.saas.zone})`))
  printPlan(plan, { dry: false })
  console.log('')

  for (const step of plan.steps) {
    if (step.action === 'exists' || step.phase === 'migrations' || step.phase === 'deploy') continue
    console.log(`${green('▶')} ${step.action} ${step.what}`)
    if (step.phase === 'd1') await mustWrangler(['d1', 'create', step.database])
    else if (step.phase === 'r2' && step.rules) await mustWrangler(['r2', 'bucket', 'cors', 'set', step.bucket, '--file', relative(root, corsFileOf(step.bucket)), '--force'])
    else if (step.phase === 'r2') await mustWrangler(['r2', 'bucket', 'create', step.bucket])
    else if (step.phase === 'queues') await mustWrangler(['queues', 'create', step.queue])
    else if (step.phase === 'saas' && step.host)
      await cf('POST', `/zones/${zoneId}/dns_records`, {
        body: { type: 'AAAA', name: step.host, content: ORIGINLESS_AAAA, proxied: true, comment: 'Coursefront: served by the app worker route (npm run deploy)' },
      })
    else if (step.phase === 'saas' && step.origin) await cf('PUT', `/zones/${zoneId}/custom_hostnames/fallback_origin`, { body: { origin: step.origin } })
  }

  // Re-read: the ids of databases created above, and nothing else assumed.
  if (plan.steps.some((s) => s.phase === 'd1' && s.action === 'create')) account = await read()
  const final = planDeploy({ views, account, corsRules, known, root })
  const generated = new Map()
  for (const c of configs) {
    const view = views.find((v) => v.configPath === c.configPath)
    if (!final.order.includes(view.name)) continue
    const file = join(c.dir, '.wrangler', 'production', 'wrangler.json')
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, `${JSON.stringify(generatedConfig({ raw: c.raw, dir: c.dir, databaseIds: final.databaseIds, vars: final.resolvedVars[view.name] }), null, 2)}\n`)
    generated.set(c.configPath, relative(root, file))
  }

  // The app's bundle wraps build/server and serves build/client: deploy what the tree holds now.
  console.log(`${green('▶')} npm run build`)
  const build = await new Promise((done) => spawn('npm', ['run', 'build', '--silent'], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] }).on('exit', (code) => done(code ?? 1)))
  if (build !== 0) throw new Error('npm run build failed: nothing deployed')

  for (const step of final.steps.filter((s) => s.phase === 'migrations')) {
    console.log(`${green('▶')} apply ${step.what}`)
    await mustWrangler(['d1', 'migrations', 'apply', step.database, '--remote', '--env', 'production', '-c', generated.get(step.configPath)])
  }
  const waiting = []
  for (const step of final.steps.filter((s) => s.phase === 'deploy')) {
    if (step.action === 'blocked') {
      console.log(`${yellow('■')} not deploying ${step.what}: needs ${step.needs.join(', ')}`)
      waiting.push(step)
      continue
    }
    console.log(`${green('▶')} deploy ${step.what}`)
    await mustWrangler(['deploy', '--env', 'production', '-c', generated.get(step.configPath)])
  }

  const unset = final.secrets.filter((s) => !s.set)
  console.log(`\n${bold('Secrets still unset')}`)
  if (unset.length === 0) console.log(`  ${green('none')}`)
  for (const s of unset) console.log(`  ${s.required ? red('required') : dim('optional')} wrangler secret put ${s.name} --env production -c ${s.configPath}`)
  if (waiting.length > 0) {
    console.error(red(`\n✖ ${waiting.length} worker(s) not deployed until the above is done; then run npm run deploy again.`))
    process.exit(1)
  }
  console.log(green('\n✔ deployed'))
} catch (error) {
  console.error(red(`\n✖ ${error instanceof Error ? error.message : String(error)}`))
  process.exit(1)
}
