// One vitest project per worker, all in workerd with the real migrations applied per test file.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { fileURLToPath } from 'node:url'
import type { kCurrentWorker } from 'miniflare'
import { unstable_getMiniflareWorkerOptions } from 'wrangler'
import { configDefaults, defineProject } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')

/** D1 of the dev peers (workers/dev-peers/wrangler.toml): bound in projects that run them. */
export const PEERS_D1 = { binding: 'PEERS_DB', id: '00000000-0000-0000-0000-0000000000d1', migrations: 'workers/dev-peers/migrations' }

/** The tenant shards every app and worker config binds (ADR 033): migrated per test file like DB. */
const SHARDS = ['DB_SHARD_0', 'DB_SHARD_1']

/**
 * A worker of workers/<name> as an auxiliary worker: the bundle `npm run build` made
 * (build/workers/<name>/index.js) with the bindings of its own wrangler.toml, so service bindings
 * to it work in tests. D1 bindings with the same id share the test file's storage.
 */
function auxiliaryWorker(name: string) {
  const scriptPath = `${root}/build/workers/${name}/index.js`
  if (!existsSync(scriptPath)) throw new Error(`${scriptPath} is missing: run \`npm run build\` (it bundles workers/* for the tests)`)
  const configPath = `${root}/workers/${name}/wrangler.toml`
  const workerName = /^\s*name\s*=\s*"([^"]+)"/m.exec(readFileSync(configPath, 'utf8'))?.[1]
  if (!workerName) throw new Error(`${configPath} has no name`)
  const { workerOptions } = unstable_getMiniflareWorkerOptions(configPath)
  return { ...workerOptions, name: workerName, modules: true, scriptPath, bindings: { ...workerOptions.bindings, ENVIRONMENT: 'test' }, serviceBindings: withoutAppBinding(workerOptions.serviceBindings) }
}

/** The dev peers' APP binding points back at the app (wrangler dev); tests give the peers their own APP. */
function withoutAppBinding<T>(bindings: Record<string, T> | undefined) {
  if (!bindings) return bindings
  const { APP: _app, ...rest } = bindings
  return rest
}

export function workersProject({
  name,
  main,
  wranglerConfig,
  include,
  exclude = [],
  auxiliaryWorkers = [],
  extraD1 = [],
  globalSetup = [],
  bunnyPeerBinding = false,
  serviceBindings,
}: {
  name: string
  /** The worker under test (`exports.default`); none for tiers that call model functions directly. */
  main?: string
  wranglerConfig: string
  include: string[]
  /** Files another (cheaper) project runs (tests/tiers.ts). */
  exclude?: string[]
  /** workers/<name> directories whose bundles run next to this project's worker. */
  auxiliaryWorkers?: string[]
  /** D1 databases beyond the worker's own config (e.g. an auxiliary worker's), migrated per file too. */
  extraD1?: { binding: string; id: string; migrations: string }[]
  /** Node-side vitest global setup files (e.g. local peers), whose `provide()` reaches tests through `inject()`. */
  globalSetup?: string[]
  /**
   * The worker under test learns where the Bunny peer runs from its BUNNY_PEER_ORIGIN var (the app
   * forwards it to the media worker): reserve the peer's port here, where bindings are decided, and
   * hand it to the global setup through `provide`.
   */
  bunnyPeerBinding?: boolean
  /** Replaces service bindings of the worker's wrangler config that point outside the test (e.g. the dev peers' APP). */
  serviceBindings?: Record<string, string | typeof kCurrentWorker>
}) {
  return defineProject(async () => {
    const migrations = await readD1Migrations(`${root}/migrations/control`)
    const shardMigrations = await readD1Migrations(`${root}/migrations/shard`)
    const peerPort = bunnyPeerBinding ? await freePort() : null
    const extraMigrations = [
      ...SHARDS.map((binding) => ({ binding, migrations: shardMigrations })),
      ...(await Promise.all(extraD1.map(async (d) => ({ binding: d.binding, migrations: await readD1Migrations(`${root}/${d.migrations}`) })))),
    ]
    return {
      root,
      plugins: [
        cloudflareTest({
          // pool-workers imports a project's main into every test file (cloudflare:test); without a
          // main of its own a project would get wrangler.toml's server.ts, the whole app (no-main.ts).
          main: `${root}/${main ?? 'tests/setup/no-main.ts'}`,
          wrangler: { configPath: `${root}/${wranglerConfig}` },
          miniflare: {
            bindings: {
              TEST_MIGRATIONS: migrations,
              TEST_EXTRA_MIGRATIONS: extraMigrations,
              ENVIRONMENT: 'test',
              ...(peerPort ? { BUNNY_PEER_ORIGIN: `http://127.0.0.1:${peerPort}` } : {}),
            },
            d1Databases: Object.fromEntries(extraD1.map((d) => [d.binding, d.id])),
            ...(serviceBindings ? { serviceBindings } : {}),
            workers: auxiliaryWorkers.map(auxiliaryWorker),
          },
        }),
      ],
      test: {
        name,
        root,
        include,
        exclude: [...configDefaults.exclude, ...exclude],
        setupFiles: ['./tests/setup/apply-migrations.ts'],
        globalSetup,
        ...(peerPort ? { provide: { bunnyPeerPort: peerPort } } : {}),
        testTimeout: 30_000,
      },
    }
  })
}

function freePort() {
  return new Promise<number>((resolvePromise, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => resolvePromise(port))
    })
  })
}
