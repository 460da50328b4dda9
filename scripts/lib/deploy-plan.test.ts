import { describe, expect, it } from 'vitest'
import {
  deployOrder,
  envProblems,
  environmentView,
  generatedConfig,
  kindOfType,
  optionalSecretsOf,
  planDeploy,
  resolveVars,
  saasTarget,
  sizeProblems,
  WORKER_GZIP_LIMIT_BYTES,
} from './deploy-plan.mjs'

// Each test builds its own small configs, shaped like parsed wrangler.toml files.
type Raw = Record<string, unknown>
const dir = '/repo'
const db = (name: string, migrations = 'migrations') => ({ binding: 'DB', database_name: name, database_id: '00000000-0000-0000-0000-000000000000', migrations_dir: migrations })
const view = (configPath: string, production: Raw | undefined, top: Raw = {}, text = '') =>
  environmentView({
    configPath,
    dir: configPath.includes('/') ? `${dir}/${configPath.split('/').slice(0, -1).join('/')}` : dir,
    raw: { name: production?.name ?? 'unnamed', ...top, env: production ? { production } : undefined },
    text,
  })

/** A small platform: an app binding two service workers and producing to a queue a third consumes. */
function platform(suffix: string, appExtra: Raw = {}) {
  const app = view('wrangler.toml', {
    name: `app-${suffix}`,
    routes: [{ pattern: '*/*', zone_name: `${suffix}.example` }],
    vars: { PLATFORM_HOST: `${suffix}.example`, S3_ENDPOINT: 'https://replace-with-account-id.r2.cloudflarestorage.com' },
    secrets: { required: ['APP_KEY'] },
    d1_databases: [db(`main-${suffix}`)],
    r2_buckets: [{ binding: 'MEDIA', bucket_name: `media-${suffix}` }],
    queues: { producers: [{ binding: 'MAIL_QUEUE', queue: `mail-${suffix}` }] },
    services: [
      { binding: 'DOMAINS', service: `domains-${suffix}` },
      { binding: 'MEDIA_WORKER', service: `media-${suffix}` },
    ],
    ...appExtra,
  })
  const domains = view('workers/domains/wrangler.toml', { name: `domains-${suffix}`, vars: { CNAME_TARGET: `customers.${suffix}.example` }, d1_databases: [db(`main-${suffix}`, '../../migrations')] })
  const media = view('workers/media/wrangler.toml', {
    name: `media-${suffix}`,
    d1_databases: [db(`main-${suffix}`, '../../migrations')],
    r2_buckets: [{ binding: 'MEDIA', bucket_name: `media-${suffix}` }],
  })
  const mail = view('workers/mail/wrangler.toml', {
    name: `mail-${suffix}`,
    d1_databases: [db(`main-${suffix}`, '../../migrations')],
    queues: { producers: [{ binding: 'MAIL_QUEUE', queue: `mail-${suffix}` }], consumers: [{ queue: `mail-${suffix}`, dead_letter_queue: `mail-${suffix}-dlq` }] },
  })
  const peers = view('workers/dev-peers/wrangler.toml', undefined, { name: 'coursefront-dev-peers', services: [{ binding: 'APP', service: `app-${suffix}` }] })
  return [app, domains, media, mail, peers]
}

const actions = (plan: ReturnType<typeof planDeploy>, phase: string) => plan.steps.filter((s) => s.phase === phase).map((s) => `${s.action} ${s.what}`)

describe('deploy order', () => {
  it('puts every worker after the workers it binds to and the consumers of its queues, ties by name', () => {
    const views = platform('order')
    const { order, cycle } = deployOrder(views)
    expect(cycle).toEqual([])
    expect(order).toEqual(['domains-order', 'mail-order', 'media-order', 'app-order'])
    expect(order).not.toContain('coursefront-dev-peers')
  })

  it('reports a cycle and still deploys every member', () => {
    const a = view('workers/a/wrangler.toml', { name: 'a-cycle', services: [{ binding: 'B', service: 'b-cycle' }] })
    const b = view('workers/b/wrangler.toml', { name: 'b-cycle', services: [{ binding: 'A', service: 'a-cycle' }] })
    const plan = planDeploy({ views: [a, b] })
    expect(plan.order).toEqual(['a-cycle', 'b-cycle'])
    expect(plan.problems.some((p) => p.includes('cycle'))).toBe(true)
  })
})

describe('what the plan creates', () => {
  it('dedupes databases by name (one create, one migration run) and creates dead-letter queues', () => {
    const plan = planDeploy({ views: platform('dedupe') })
    expect(actions(plan, 'd1')).toEqual(['create D1 database main-dedupe'])
    expect(actions(plan, 'migrations')).toEqual([`apply migrations of main-dedupe from ${dir}/migrations`])
    expect(actions(plan, 'r2')).toEqual(['create R2 bucket media-dedupe'])
    expect(actions(plan, 'queues')).toEqual(['create queue mail-dedupe', 'create queue mail-dedupe-dlq (dead-letter queue)'])
    expect(plan.problems).toEqual([])
  })

  it('keeps shard databases apart, each with its own migrations folder', () => {
    const views = platform('shards', {
      d1_databases: [
        db('control-shards', 'migrations/control'),
        { ...db('shard-0-shards', 'migrations/shard'), binding: 'DB_SHARD_0' },
        { ...db('shard-1-shards', 'migrations/shard'), binding: 'DB_SHARD_1' },
      ],
    })
    const plan = planDeploy({ views })
    const migrations = plan.steps.filter((s) => s.phase === 'migrations').map((s) => [s.database, s.migrationsDir])
    expect(migrations).toContainEqual(['control-shards', `${dir}/migrations/control`])
    expect(migrations).toContainEqual(['shard-0-shards', `${dir}/migrations/shard`])
    expect(migrations).toContainEqual(['shard-1-shards', `${dir}/migrations/shard`])
  })

  it('with nothing in the account: creates everything, sets the fallback origin and waits for secrets', () => {
    const plan = planDeploy({ views: platform('empty'), corsRules: { 'media-empty': [{ allowed: { origins: ['*'], methods: ['PUT'] } }] } })
    expect(actions(plan, 'r2')).toContain('set CORS rules of media-empty')
    expect(actions(plan, 'saas')).toEqual([
      'create DNS empty.example AAAA 100:: (proxied) in zone empty.example',
      'create DNS *.empty.example AAAA 100:: (proxied) in zone empty.example',
      'create DNS customers.empty.example AAAA 100:: (proxied) in zone empty.example',
      'set Cloudflare for SaaS fallback origin customers.empty.example',
    ])
    const app = plan.steps.find((s) => s.worker === 'app-empty')
    expect(app?.action).toBe('blocked')
    expect(app?.needs).toEqual(['secret APP_KEY', 'S3_ENDPOINT (from CLOUDFLARE_ACCOUNT_ID)'])
    expect(plan.secrets).toEqual([{ worker: 'app-empty', configPath: 'wrangler.toml', name: 'APP_KEY', required: true, set: false }])
  })

  it('is idempotent: with everything in place only migrations, deploys and the secrets check remain', () => {
    const views = platform('again')
    const rules = [{ allowed: { origins: ['*'], methods: ['PUT'] } }]
    const account = {
      databases: [{ name: 'main-again', uuid: 'a1b2c3d4-0000-4000-8000-000000000001' }],
      buckets: ['media-again'],
      cors: { 'media-again': rules },
      queues: ['mail-again', 'mail-again-dlq'],
      dnsRecords: ['again.example', '*.again.example', 'customers.again.example'],
      fallbackOrigin: { origin: 'customers.again.example', status: 'active' },
      secrets: { 'app-again': ['APP_KEY'] },
    }
    const plan = planDeploy({ views, account, corsRules: { 'media-again': rules }, known: { accountId: 'acc123' } })
    const work = plan.steps.filter((s) => s.action !== 'exists').map((s) => `${s.phase}:${s.action}`)
    expect(work).toEqual(['migrations:apply', 'deploy:deploy', 'deploy:deploy', 'deploy:deploy', 'deploy:deploy'])
    expect(plan.databaseIds).toEqual({ 'main-again': 'a1b2c3d4-0000-4000-8000-000000000001' })
    expect(plan.resolvedVars['app-again'].S3_ENDPOINT).toBe('https://acc123.r2.cloudflarestorage.com')
    expect(plan.secrets.every((s) => s.set)).toBe(true)
  })

  it('blocks a worker whose dependency is blocked, and changes a fallback origin that points elsewhere', () => {
    const views = platform('chain')
    views[1] = view('workers/domains/wrangler.toml', { name: 'domains-chain', vars: { CNAME_TARGET: 'customers.chain.example' }, secrets: { required: ['CF_API_TOKEN'] } })
    const plan = planDeploy({ views, account: { fallbackOrigin: { origin: 'old.chain.example', status: 'active' }, secrets: { 'app-chain': ['APP_KEY'] } }, known: { accountId: 'acc' } })
    expect(plan.steps.find((s) => s.worker === 'app-chain')?.needs).toEqual(['worker domains-chain'])
    expect(plan.steps.find((s) => s.worker === 'mail-chain')?.action).toBe('deploy')
    expect(actions(plan, 'saas')).toContain('set Cloudflare for SaaS fallback origin customers.chain.example (now old.chain.example)')
  })
})

describe('missing bindings', () => {
  it('finds a production binding to a development-only worker, a worker without production and a queue nobody consumes', () => {
    const views = platform('missing', { services: [{ binding: 'DEV_PEERS', service: 'coursefront-dev-peers' }], queues: { producers: [{ binding: 'LOST', queue: 'lost-missing' }] } })
    views.push(view('workers/extra/wrangler.toml', undefined, { name: 'extra-missing' }))
    const { problems } = planDeploy({ views })
    expect(problems).toContain('wrangler.toml: service binding DEV_PEERS → coursefront-dev-peers, which no production config deploys')
    expect(problems.some((p) => p.startsWith('workers/extra/wrangler.toml: no [env.production]'))).toBe(true)
    expect(problems.some((p) => p.startsWith('wrangler.toml: queue lost-missing (LOST) has no consumer'))).toBe(true)
    expect(problems.some((p) => p.includes('dev-peers/wrangler.toml: no [env.production]'))).toBe(false)
  })

  it('finds one database with two migration folders', () => {
    const views = platform('folders')
    views[2] = view('workers/media/wrangler.toml', { name: 'media-folders', d1_databases: [db('main-folders', 'other')] })
    const { problems } = planDeploy({ views })
    expect(problems.some((p) => p.includes('database main-folders has migrations in'))).toBe(true)
  })

  it('needs one "*/*" route and one CNAME_TARGET inside its zone for Cloudflare for SaaS', () => {
    const noRoute = platform('saas', { routes: [] })
    expect(saasTarget(noRoute).problems).toContain('no production config routes "*/*" on the SaaS zone: custom hostnames would reach no worker')
    const views = platform('saas2')
    views[1] = view('workers/domains/wrangler.toml', { name: 'domains-saas2', vars: { CNAME_TARGET: 'customers.elsewhere.example' } })
    expect(saasTarget(views).problems).toContain('the fallback origin customers.elsewhere.example is not in the zone saas2.example')
  })
})

describe('Env types against production configs', () => {
  const production = view('workers/w/wrangler.toml', {
    name: 'w-env',
    vars: { MODE: 'production' },
    secrets: { required: ['TOKEN'] },
    d1_databases: [db('env-db')],
    queues: { producers: [{ binding: 'JOBS', queue: 'jobs-env' }] },
  })
  const devView = environmentView({ configPath: 'workers/w/wrangler.toml', dir, raw: { name: 'w-env', services: [{ binding: 'DEV_PEERS', service: 'coursefront-dev-peers' }] } }, null)

  it('accepts bound bindings, vars, required secrets, optional strings and development-only peers', () => {
    const keys = [
      { name: 'DB', optional: false, kind: 'd1' },
      { name: 'JOBS', optional: true, kind: 'queue' },
      { name: 'MODE', optional: false, kind: 'string' },
      { name: 'TOKEN', optional: false, kind: 'string' },
      { name: 'FEATURE_URL', optional: true, kind: 'string' },
      { name: 'DEV_PEERS', optional: true, kind: 'service' },
    ]
    expect(envProblems({ typeName: 'WEnv', keys, production, development: devView })).toEqual([])
  })

  it('refuses an unbound binding even when optional, a wrong kind and a required string with no value', () => {
    const keys = [
      { name: 'MEDIA', optional: true, kind: 'r2' },
      { name: 'DB', optional: false, kind: 'queue' },
      { name: 'API_KEY', optional: false, kind: 'string' },
    ]
    expect(envProblems({ typeName: 'WEnv', keys, production, development: devView })).toEqual([
      'WEnv.MEDIA (r2) is not bound in workers/w/wrangler.toml [env.production]',
      'WEnv.DB is a queue in the type but a d1 binding in workers/w/wrangler.toml [env.production]',
      'WEnv.API_KEY is required but workers/w/wrangler.toml [env.production] has no var or required secret API_KEY',
    ])
  })

  it('names binding kinds from the declared type', () => {
    expect(['D1Database', 'Queue<Job>', 'Fetcher', 'DurableObjectNamespace<Feed>', 'string', "'a' | 'b'", 'R2Bucket', 'number'].map(kindOfType)).toEqual([
      'd1',
      'queue',
      'service',
      'durable-object',
      'string',
      'other',
      'r2',
      'other',
    ])
  })
})

describe('small rules', () => {
  it('reads optional secrets only from the production part of a config', () => {
    const text = '# optional-secrets = ["DEV_ONLY"]\n[env.production.vars]\nA = "1"\n# optional-secrets = ["SMS_TOKEN", "GUS_KEY"]\n'
    expect(optionalSecretsOf(text)).toEqual(['SMS_TOKEN', 'GUS_KEY'])
    expect(optionalSecretsOf('[vars]\nA = "1"\n')).toEqual([])
  })

  it("fills the account and zone placeholders and leaves the operator's own", () => {
    const { vars, unresolved } = resolveVars({ S3: 'https://replace-with-account-id.r2.example', ZONE: 'replace-with-the-saas-zone-id', LIB: 'replace-with-library-id', N: 'x' }, { zoneId: 'z9' })
    expect(vars.ZONE).toBe('z9')
    expect(unresolved.map((u) => [u.key, u.source])).toEqual([
      ['S3', 'CLOUDFLARE_ACCOUNT_ID'],
      ['LIB', null],
    ])
  })

  it('fails a bundle over the compressed limit only', () => {
    expect(
      sizeProblems([
        { worker: 'small', gzipBytes: WORKER_GZIP_LIMIT_BYTES },
        { worker: 'big', gzipBytes: WORKER_GZIP_LIMIT_BYTES + 1 },
      ]),
    ).toEqual(['big: 10.00 MiB gzip exceeds the 10 MiB Worker size limit'])
  })
})

describe('the generated config', () => {
  it('carries the real database ids and filled vars, absolute paths, and no development bindings', () => {
    const raw = {
      name: 'gen-dev',
      main: './src/index.ts',
      assets: { directory: './build/client', binding: 'ASSETS' },
      vars: { SECRET_DEV_VALUE: 'dev' },
      services: [{ binding: 'DEV_PEERS', service: 'coursefront-dev-peers' }],
      migrations: [{ tag: 'v1', new_sqlite_classes: ['Feed'] }],
      env: { production: { name: 'gen', vars: { S3: 'replace-with-account-id' }, d1_databases: [db('gen-db', '../../migrations')] } },
    }
    const out = generatedConfig({ raw, dir: '/repo/workers/gen', databaseIds: { 'gen-db': 'f00d' }, vars: { S3: 'acc' } })
    expect(out).toEqual({
      name: 'gen-dev',
      main: '/repo/workers/gen/src/index.ts',
      assets: { directory: '/repo/workers/gen/build/client', binding: 'ASSETS' },
      migrations: [{ tag: 'v1', new_sqlite_classes: ['Feed'] }],
      env: { production: { name: 'gen', vars: { S3: 'acc' }, d1_databases: [{ binding: 'DB', database_name: 'gen-db', database_id: 'f00d', migrations_dir: '/repo/migrations' }] } },
    })
  })
})
