// The deploy plan (issue 26 §2), pure but for readConfigs: wrangler configs (parsed) and what the
// account already has in, steps out. scripts/deploy.mjs reads the configs and the account and runs the
// steps; scripts/check-bundles.mjs uses the same views to check the Env types against production.
// No I/O here so the rules (dependency order, dedupe, idempotence, missing bindings) are unit-tested
// (scripts/lib/deploy-plan.test.ts). docs/deploy.md describes the result.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

export const PRODUCTION = 'production'

/** Workers that exist for development and tests only (architecture.md): never deployed, never bound in production. */
export const DEVELOPMENT_ONLY_WORKERS = ['coursefront-dev-peers']

/** Workers paid plan: a Worker may be up to 10 MB after compression (developers.cloudflare.com/workers/platform/limits, "Worker size"). */
export const WORKER_GZIP_LIMIT_BYTES = 10 * 1024 * 1024

/** A production var still holding this prefix is a value the operator has to choose (or the deploy fills in). */
export const PLACEHOLDER_PREFIX = 'replace-with-'

/** Placeholders the deploy fills itself: the account id (R2's S3 endpoint) and the SaaS zone id. */
const FILLED_PLACEHOLDERS = [
  { marker: 'replace-with-account-id', from: 'accountId', source: 'CLOUDFLARE_ACCOUNT_ID' },
  { marker: 'replace-with-the-saas-zone-id', from: 'zoneId', source: 'CLOUDFLARE_ZONE_ID' },
]

/** Originless address for proxied records whose traffic a Worker route answers (Cloudflare for SaaS, "Workers as your fallback origin"). */
export const ORIGINLESS_AAAA = '100::'

/**
 * The one reader (the only I/O here): the app's wrangler.toml and every workers/<name>/wrangler.toml,
 * parsed by wrangler's own parser (loaded only when called, so the tests never load wrangler).
 */
export async function readConfigs(root) {
  const { experimental_readRawConfig } = await import('wrangler')
  const workers = join(root, 'workers')
  const paths = [
    'wrangler.toml',
    ...readdirSync(workers, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(workers, e.name, 'wrangler.toml')))
      .map((e) => `workers/${e.name}/wrangler.toml`)
      .sort(),
  ]
  return paths.map((configPath) => {
    const file = join(root, configPath)
    return { configPath, dir: dirname(file), raw: experimental_readRawConfig({ config: file }).rawConfig, text: readFileSync(file, 'utf8') }
  })
}

const list = (value) => (Array.isArray(value) ? value : [])
const uniq = (values) => [...new Set(values)]
const byName = (a, b) => (a < b ? -1 : a > b ? 1 : 0)

/** `# optional-secrets = ["A", "B"]` in the production part of the config's text (TOML has no place for it: wrangler only knows required ones). */
export function optionalSecretsOf(text, env = PRODUCTION) {
  const start = env ? text.search(new RegExp(`^\\[+env\\.${env}[\\].]`, 'm')) : 0
  if (start < 0) return []
  const match = /^#\s*optional-secrets\s*=\s*(\[.*\])\s*$/m.exec(text.slice(start))
  if (!match) return []
  const parsed = JSON.parse(match[1])
  if (!Array.isArray(parsed) || !parsed.every((s) => typeof s === 'string')) throw new Error('optional-secrets must be a JSON array of names')
  return parsed
}

/**
 * One environment of one config as the deploy sees it. Bindings, vars and secrets are never
 * inherited by an environment (wrangler's rule), so a production view reads only `env.production`
 * for them; name, routes, triggers and assets fall back to the top level as wrangler does.
 * `env: null` is the development (top-level) view.
 */
/**
 * @param {{ configPath: string, dir: string, raw: any, text?: string }} config
 * @param {string | null} [env]
 */
export function environmentView({ configPath, dir, raw, text = '' }, env = PRODUCTION) {
  const section = env ? raw.env?.[env] : raw
  const own = section ?? {}
  const inherit = (key) => (own[key] !== undefined ? own[key] : raw[key])
  // wrangler names an environment's worker `${name}-${env}` unless the environment names it; a
  // config without the environment is known by its own name (to tell development-only workers).
  const name = env && section ? own.name ?? (raw.name ? `${raw.name}-${env}` : undefined) : raw.name
  const routes = [...list(inherit('routes')), ...(inherit('route') ? [inherit('route')] : [])].map((r) =>
    typeof r === 'string' ? { pattern: r, zone: null } : { pattern: r.pattern, zone: r.zone_name ?? r.zone_id ?? null, customDomain: Boolean(r.custom_domain) },
  )
  const assets = inherit('assets')
  return {
    configPath,
    dir,
    env,
    name,
    hasEnvironment: env ? Boolean(section) : true,
    d1: list(own.d1_databases).map((d) => ({
      binding: d.binding,
      databaseName: d.database_name,
      databaseId: d.database_id,
      migrationsDir: resolve(dir, d.migrations_dir ?? 'migrations'),
    })),
    r2: list(own.r2_buckets).map((b) => ({ binding: b.binding, bucket: b.bucket_name })),
    producers: list(own.queues?.producers).map((p) => ({ binding: p.binding, queue: p.queue })),
    consumers: list(own.queues?.consumers).map((c) => ({ queue: c.queue, deadLetterQueue: c.dead_letter_queue ?? null })),
    services: list(own.services).map((s) => ({ binding: s.binding, service: s.service })),
    durableObjects: list(own.durable_objects?.bindings).map((d) => ({ binding: d.name, className: d.class_name, scriptName: d.script_name ?? null })),
    kv: list(own.kv_namespaces).map((k) => ({ binding: k.binding })),
    assets: assets?.binding ? { binding: assets.binding } : null,
    vars: { ...(own.vars ?? {}) },
    requiredSecrets: list(own.secrets?.required),
    optionalSecrets: env ? optionalSecretsOf(text, env) : [],
    routes,
  }
}

/** Every binding name of a view with its kind (what an Env key must match). */
export function bindingsOf(view) {
  const out = new Map()
  for (const d of view.d1) out.set(d.binding, 'd1')
  for (const b of view.r2) out.set(b.binding, 'r2')
  for (const p of view.producers) out.set(p.binding, 'queue')
  for (const s of view.services) out.set(s.binding, 'service')
  for (const d of view.durableObjects) out.set(d.binding, 'durable-object')
  for (const k of view.kv) out.set(k.binding, 'kv')
  if (view.assets) out.set(view.assets.binding, 'service')
  return out
}

const isDeployed = (view) => !DEVELOPMENT_ONLY_WORKERS.includes(view.name)

/** What the configs themselves get wrong, before anything is read from the account. */
export function configProblems(views) {
  const problems = []
  const deployable = views.filter((v) => v.hasEnvironment && isDeployed(v))
  for (const v of views) {
    if (!v.hasEnvironment && isDeployed(v))
      problems.push(`${v.configPath}: no [env.${PRODUCTION}] — it would deploy with no production bindings (a worker that is never deployed belongs in DEVELOPMENT_ONLY_WORKERS)`)
  }
  const names = new Map()
  for (const v of deployable) {
    if (!v.name) problems.push(`${v.configPath}: the production worker has no name`)
    else if (names.has(v.name)) problems.push(`${v.configPath}: worker name ${v.name} is also used by ${names.get(v.name)}`)
    else names.set(v.name, v.configPath)
  }
  const consumed = new Set(deployable.flatMap((v) => v.consumers.map((c) => c.queue)))
  const databases = new Map()
  for (const v of deployable) {
    for (const s of v.services) {
      if (!names.has(s.service)) problems.push(`${v.configPath}: service binding ${s.binding} → ${s.service}, which no production config deploys`)
    }
    for (const d of v.durableObjects) {
      if (d.scriptName && d.scriptName !== v.name && !names.has(d.scriptName))
        problems.push(`${v.configPath}: Durable Object binding ${d.binding} → ${d.scriptName}, which no production config deploys`)
    }
    for (const p of v.producers) {
      if (!consumed.has(p.queue)) problems.push(`${v.configPath}: queue ${p.queue} (${p.binding}) has no consumer in any production config: its messages would never be handled`)
    }
    for (const d of v.d1) {
      if (!d.databaseName) {
        problems.push(`${v.configPath}: D1 binding ${d.binding} has no database_name`)
        continue
      }
      const seen = databases.get(d.databaseName)
      if (seen && seen.migrationsDir !== d.migrationsDir)
        problems.push(`${v.configPath}: database ${d.databaseName} has migrations in ${d.migrationsDir} here but ${seen.migrationsDir} in ${seen.configPath}`)
      if (!seen) databases.set(d.databaseName, { migrationsDir: d.migrationsDir, configPath: v.configPath })
    }
    for (const b of v.r2) if (!b.bucket) problems.push(`${v.configPath}: R2 binding ${b.binding} has no bucket_name`)
  }
  return problems
}

/**
 * Deploy order: a worker after every worker it binds to — its service bindings, the Durable
 * Objects of other scripts, and the consumers of the queues it produces to (a producer may exist
 * before its consumer, but then its first messages wait for a worker that is not there yet).
 * Ties by name, so the order is stable. A cycle is a problem; its members follow by name.
 */
export function deployOrder(views) {
  const deployable = views.filter((v) => v.hasEnvironment && isDeployed(v) && v.name)
  const names = new Set(deployable.map((v) => v.name))
  const consumerOf = new Map()
  for (const v of deployable) for (const c of v.consumers) if (!consumerOf.has(c.queue)) consumerOf.set(c.queue, v.name)
  const deps = new Map()
  for (const v of deployable) {
    const targets = [...v.services.map((s) => s.service), ...v.durableObjects.map((d) => d.scriptName).filter(Boolean), ...v.producers.map((p) => consumerOf.get(p.queue)).filter(Boolean)]
    deps.set(v.name, uniq(targets.filter((t) => t !== v.name && names.has(t))).sort(byName))
  }
  const order = []
  const done = new Set()
  while (done.size < names.size) {
    const ready = [...names].filter((n) => !done.has(n) && deps.get(n).every((d) => done.has(d))).sort(byName)
    if (ready.length === 0) {
      const rest = [...names].filter((n) => !done.has(n)).sort(byName)
      return { order: [...order, ...rest], deps, cycle: rest }
    }
    // One at a time: the next is always the first ready name, so the order does not depend on rounds.
    order.push(ready[0])
    done.add(ready[0])
  }
  return { order, deps, cycle: [] }
}

/**
 * Cloudflare for SaaS: the worker with a `*` + `/*` route on a zone serves every hostname of that
 * zone and every custom hostname; custom hostnames reach the zone through the fallback origin,
 * the hostname customers CNAME to (the domains worker's CNAME_TARGET).
 */
export function saasTarget(views) {
  const deployable = views.filter((v) => v.hasEnvironment && isDeployed(v))
  const problems = []
  const routed = deployable.flatMap((v) => v.routes.filter((r) => r.pattern === '*/*').map((r) => ({ worker: v.name, zone: r.zone, platformHost: v.vars.PLATFORM_HOST ?? null })))
  const cnames = uniq(deployable.map((v) => v.vars.CNAME_TARGET).filter(Boolean))
  if (routed.length === 0) problems.push('no production config routes "*/*" on the SaaS zone: custom hostnames would reach no worker')
  if (routed.length > 1) problems.push(`more than one worker routes "*/*": ${routed.map((r) => r.worker).join(', ')}`)
  if (cnames.length !== 1)
    problems.push(cnames.length === 0 ? 'no production CNAME_TARGET (the fallback origin customers point their CNAME at)' : `production configs disagree on CNAME_TARGET: ${cnames.join(', ')}`)
  const route = routed[0] ?? null
  const zone = route?.zone ?? null
  const fallbackOrigin = cnames[0] ?? null
  if (zone && fallbackOrigin && !fallbackOrigin.endsWith(`.${zone}`)) problems.push(`the fallback origin ${fallbackOrigin} is not in the zone ${zone}`)
  const platformHost = route?.platformHost ?? null
  const hosts = platformHost ? uniq([platformHost, `*.${platformHost}`, ...(fallbackOrigin ? [fallbackOrigin] : [])]) : fallbackOrigin ? [fallbackOrigin] : []
  return { worker: route?.worker ?? null, zone, fallbackOrigin, hosts, problems }
}

/** Production vars with the placeholders the deploy can fill; the rest are left for the operator. */
/**
 * @param {Record<string, unknown>} vars
 * @param {{ accountId?: string, zoneId?: string }} [known]
 */
export function resolveVars(vars, known = {}) {
  /** @type {Record<string, unknown>} */
  const out = {}
  /** @type {{ key: string, value: string, source: string | null }[]} */
  const unresolved = []
  for (const [key, value] of Object.entries(vars)) {
    if (typeof value !== 'string' || !value.includes(PLACEHOLDER_PREFIX)) {
      out[key] = value
      continue
    }
    let next = value
    for (const p of FILLED_PLACEHOLDERS) if (known[p.from]) next = next.split(p.marker).join(known[p.from])
    out[key] = next
    if (next.includes(PLACEHOLDER_PREFIX)) {
      const filler = FILLED_PLACEHOLDERS.find((p) => next.includes(p.marker))
      unresolved.push({ key, value: next, source: filler?.source ?? null })
    }
  }
  return { vars: out, unresolved }
}

const EMPTY_ACCOUNT = { databases: [], buckets: [], cors: {}, queues: [], dnsRecords: [], fallbackOrigin: null, secrets: {} }

/** JSON with sorted keys: the API may answer the CORS rules in another key order than the file. */
const canonical = (value) =>
  Array.isArray(value)
    ? value.map(canonical)
    : value && typeof value === 'object'
    ? Object.fromEntries(
        Object.keys(value)
          .sort(byName)
          .map((k) => [k, canonical(value[k])]),
      )
    : value
const sameJson = (a, b) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b))

/**
 * The whole plan. `account` is what exists (null: nothing — the dry run on a machine without an
 * account); `corsRules` maps a bucket to the rules its worker's `r2-cors.json` asks for; `known`
 * carries accountId / zoneId when they are known. Every step has an `action`: create, set, apply,
 * deploy, blocked (deploy that waits for something, listed in `needs`) or exists (nothing to do).
 */
/**
 * @param {{ views: any[], account?: any, corsRules?: Record<string, unknown[]>, known?: { accountId?: string, zoneId?: string }, root?: string | null }} input
 */
export function planDeploy({ views, account = null, corsRules = {}, known = {}, root = null }) {
  const relativeTo = (path) => (root ? relative(root, path) || '.' : path)
  const have = { ...EMPTY_ACCOUNT, ...(account ?? {}) }
  const problems = configProblems(views)
  const deployable = views.filter((v) => v.hasEnvironment && isDeployed(v) && v.name)
  const steps = []

  // 1. D1: one database per database_name, whichever configs bind it.
  const databases = new Map()
  for (const v of deployable) for (const d of v.d1) if (d.databaseName && !databases.has(d.databaseName)) databases.set(d.databaseName, { ...d, configPath: v.configPath, worker: v.name })
  const existingDb = new Map(have.databases.map((d) => [d.name, d.uuid]))
  /** @type {Record<string, string>} */
  const databaseIds = {}
  for (const [name] of [...databases].sort(([a], [b]) => byName(a, b))) {
    const id = existingDb.get(name)
    if (id) databaseIds[name] = id
    steps.push({ phase: 'd1', action: id ? 'exists' : 'create', what: `D1 database ${name}`, database: name, id: id ?? null })
  }

  // 2. R2 buckets and their CORS rules (browsers PUT presigned uploads straight to R2, ADR 010).
  const buckets = uniq(deployable.flatMap((v) => v.r2.map((b) => b.bucket)).filter(Boolean)).sort(byName)
  for (const bucket of buckets) {
    steps.push({ phase: 'r2', action: have.buckets.includes(bucket) ? 'exists' : 'create', what: `R2 bucket ${bucket}`, bucket })
    const rules = corsRules[bucket]
    if (rules) steps.push({ phase: 'r2', action: sameJson(have.cors[bucket] ?? null, rules) ? 'exists' : 'set', what: `CORS rules of ${bucket}`, bucket, rules })
  }

  // 3. Queues: every produced or consumed queue and every dead-letter queue a consumer names.
  const queues = uniq(deployable.flatMap((v) => [...v.producers.map((p) => p.queue), ...v.consumers.flatMap((c) => [c.queue, c.deadLetterQueue])]).filter(Boolean)).sort(byName)
  const deadLetters = new Set(deployable.flatMap((v) => v.consumers.map((c) => c.deadLetterQueue)).filter(Boolean))
  for (const queue of queues) {
    steps.push({ phase: 'queues', action: have.queues.includes(queue) ? 'exists' : 'create', what: `queue ${queue}${deadLetters.has(queue) ? ' (dead-letter queue)' : ''}`, queue })
  }

  // 4. Cloudflare for SaaS: proxied records for the platform and the fallback origin, the fallback origin itself.
  const saas = saasTarget(views)
  problems.push(...saas.problems)
  for (const host of saas.hosts) {
    steps.push({ phase: 'saas', action: have.dnsRecords.includes(host) ? 'exists' : 'create', what: `DNS ${host} AAAA ${ORIGINLESS_AAAA} (proxied) in zone ${saas.zone}`, host })
  }
  if (saas.fallbackOrigin) {
    const current = have.fallbackOrigin?.origin ?? null
    steps.push({
      phase: 'saas',
      action: current === saas.fallbackOrigin ? 'exists' : 'set',
      what: `Cloudflare for SaaS fallback origin ${saas.fallbackOrigin}${current && current !== saas.fallbackOrigin ? ` (now ${current})` : ''}`,
      origin: saas.fallbackOrigin,
    })
  }

  // 5. Migrations on every database: wrangler applies only the ones it has not recorded.
  for (const [name, d] of [...databases].sort(([a], [b]) => byName(a, b))) {
    steps.push({ phase: 'migrations', action: 'apply', what: `migrations of ${name} from ${relativeTo(d.migrationsDir)}`, database: name, migrationsDir: d.migrationsDir, configPath: d.configPath })
  }

  // 6. Workers in dependency order; a worker whose required secrets, vars or dependencies are missing waits.
  const { order, deps, cycle } = deployOrder(views)
  if (cycle.length > 0) problems.push(`bindings form a cycle between ${cycle.join(', ')}: deployed by name`)
  const viewOf = new Map(deployable.map((v) => [v.name, v]))
  const secrets = []
  const blocked = new Set()
  /** @type {Record<string, Record<string, unknown>>} */
  const resolvedVars = {}
  for (const name of order) {
    const v = viewOf.get(name)
    const set = new Set(have.secrets[name] ?? [])
    for (const s of v.requiredSecrets) secrets.push({ worker: name, configPath: v.configPath, name: s, required: true, set: set.has(s) })
    for (const s of v.optionalSecrets) secrets.push({ worker: name, configPath: v.configPath, name: s, required: false, set: set.has(s) })
    const { vars, unresolved } = resolveVars(v.vars, known)
    resolvedVars[name] = vars
    const needs = [
      ...v.requiredSecrets.filter((s) => !set.has(s)).map((s) => `secret ${s}`),
      ...unresolved.map((u) => (u.source ? `${u.key} (from ${u.source})` : `var ${u.key} (edit ${v.configPath})`)),
      ...deps
        .get(name)
        .filter((d) => blocked.has(d))
        .map((d) => `worker ${d}`),
    ]
    if (needs.length > 0) blocked.add(name)
    const routes = v.routes.map((r) => `${r.pattern}${r.zone ? ` on ${r.zone}` : ''}`)
    steps.push({
      phase: 'deploy',
      action: needs.length > 0 ? 'blocked' : 'deploy',
      what: `worker ${name}${routes.length ? ` (routes ${routes.join(', ')})` : ''}`,
      worker: name,
      configPath: v.configPath,
      after: deps.get(name),
      needs,
    })
  }

  return { steps, problems, order, secrets, databaseIds, resolvedVars, saas }
}

/**
 * Env type keys against a production view: the check-bundles rule (docs/deploy.md).
 * - A binding key (D1, R2, queue, service, Durable Object, KV) must be bound in production with
 *   that kind, optional or not — unless the development config binds it to a development-only
 *   worker (DEV_PEERS), which must then stay out of production.
 * - A string key that is not optional (`KEY: string`) must be a production var or a required secret.
 *   An optional one (`KEY?: string`) may be unset: the code copes (a feature off, a default).
 * keys: [{ name, optional, kind: 'd1'|'r2'|'queue'|'service'|'durable-object'|'kv'|'string'|'other' }].
 */
export function envProblems({ typeName, keys, production, development }) {
  const problems = []
  const where = `${production.configPath} [env.${PRODUCTION}]`
  const bound = bindingsOf(production)
  const devOnly = new Set(development ? development.services.filter((s) => DEVELOPMENT_ONLY_WORKERS.includes(s.service)).map((s) => s.binding) : [])
  const secrets = new Set([...production.requiredSecrets, ...production.optionalSecrets])
  for (const key of keys) {
    if (key.kind === 'string' || key.kind === 'other') {
      if (key.optional) continue
      if (key.name in production.vars || production.requiredSecrets.includes(key.name)) continue
      problems.push(`${typeName}.${key.name} is required but ${where} has no var or required secret ${key.name}${secrets.has(key.name) ? ' (it is only an optional secret)' : ''}`)
      continue
    }
    if (devOnly.has(key.name)) {
      if (bound.has(key.name)) problems.push(`${where} binds ${key.name}, a development-only binding`)
      continue
    }
    if (!bound.has(key.name)) problems.push(`${typeName}.${key.name} (${key.kind}) is not bound in ${where}`)
    else if (bound.get(key.name) !== key.kind) problems.push(`${typeName}.${key.name} is a ${key.kind} in the type but a ${bound.get(key.name)} binding in ${where}`)
  }
  return problems
}

/** The Workers binding type a declared type names, or 'string'/'other'. */
export function kindOfType(typeText) {
  const t = typeText.replace(/\s+/g, '')
  if (/^D1Database\b/.test(t)) return 'd1'
  if (/^R2Bucket\b/.test(t)) return 'r2'
  if (/^Queue\b/.test(t)) return 'queue'
  if (/^(Fetcher|Service)\b/.test(t)) return 'service'
  if (/^DurableObjectNamespace\b/.test(t)) return 'durable-object'
  if (/^KVNamespace\b/.test(t)) return 'kv'
  if (/^string\b/.test(t) || /^("[^"]*"\|?)+$/.test(t)) return 'string'
  return 'other'
}

/** Bundles over the compressed size limit. sizes: [{ worker, gzipBytes }]. */
export function sizeProblems(sizes, limit = WORKER_GZIP_LIMIT_BYTES) {
  return sizes.filter((s) => s.gzipBytes > limit).map((s) => `${s.worker}: ${(s.gzipBytes / 1024 / 1024).toFixed(2)} MiB gzip exceeds the ${(limit / 1024 / 1024).toFixed(0)} MiB Worker size limit`)
}

/** Keys an environment never inherits: left out of the generated config so no development binding or value travels with it. */
const NOT_INHERITED = [
  'vars',
  'define',
  'd1_databases',
  'r2_buckets',
  'queues',
  'services',
  'durable_objects',
  'kv_namespaces',
  'secrets',
  'analytics_engine_datasets',
  'hyperdrive',
  'vectorize',
  'ai',
  'browser',
  'send_email',
  'workflows',
  'tail_consumers',
  'unsafe',
  'mtls_certificates',
  'dispatch_namespaces',
  'pipelines',
  'version_metadata',
]

/**
 * The config `npm run deploy` hands to wrangler: the committed one with the real D1 ids and the
 * filled vars, relative paths made absolute (it is written under `<config dir>/.wrangler/`, which
 * git ignores, so the repository never changes). Returns a plain object to write as JSON.
 */
/** @param {{ raw: any, dir: string, databaseIds?: Record<string, string>, vars?: Record<string, unknown> | null, env?: string }} input */
export function generatedConfig({ raw, dir, databaseIds = {}, vars = null, env = PRODUCTION }) {
  const out = {}
  for (const [key, value] of Object.entries(raw)) if (key !== 'env' && !NOT_INHERITED.includes(key)) out[key] = value
  const abs = (p) => (typeof p === 'string' ? resolve(dir, p) : p)
  for (const key of ['main', 'base_dir', 'tsconfig']) if (out[key]) out[key] = abs(out[key])
  if (out.assets?.directory) out.assets = { ...out.assets, directory: abs(out.assets.directory) }
  const section = { ...(raw.env?.[env] ?? {}) }
  if (section.main) section.main = abs(section.main)
  if (section.assets?.directory) section.assets = { ...section.assets, directory: abs(section.assets.directory) }
  if (vars) section.vars = vars
  if (section.d1_databases) {
    section.d1_databases = section.d1_databases.map((d) => ({
      ...d,
      database_id: databaseIds[d.database_name] ?? d.database_id,
      migrations_dir: abs(d.migrations_dir ?? 'migrations'),
    }))
  }
  out.env = { [env]: section }
  return out
}
