// Applies migrations to a local D1 and seeds the demo schools. Safe to run again.
//   tsx scripts/seed.ts [--persist-to DIR] [--platform-host HOST]
import { execFileSync } from 'node:child_process'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { buildPeerSeedSql, buildSeedSql, demoImageObjects, devIntegrationsKey, loadDemoTenants } from './lib/demo-tenants.ts'

const args = process.argv.slice(2)
const option = (name: string) => {
  const i = args.indexOf(name)
  return i === -1 ? undefined : args[i + 1]
}
const root = resolve(import.meta.dirname, '..')
const persistTo = option('--persist-to')
const platformHost = option('--platform-host') ?? 'localhost'
const wrangler = join(root, 'node_modules', '.bin', 'wrangler')
const persist = persistTo ? ['--persist-to', persistTo] : []

// The control plane and every shard (ADR 033), each with its own migrations folder (wrangler.toml).
const SHARDS = ['DB_SHARD_0', 'DB_SHARD_1']
for (const binding of ['DB', ...SHARDS]) {
  execFileSync(wrangler, ['d1', 'migrations', 'apply', binding, '--local', ...persist], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, CI: 'true' } })
}

const demo = loadDemoTenants(join(root, 'tenants'))
const sql = await buildSeedSql(demo, platformHost, Date.now(), devIntegrationsKey(readFileSync(join(root, 'wrangler.toml'), 'utf8')), SHARDS.length)
mkdirSync(join(root, '.wrangler'), { recursive: true })
const files: Array<[string, string]> = [['DB', sql.control], ...SHARDS.map((binding, i): [string, string] => [binding, sql.shards[i]!])]
// The dev peers' side of the demo integrations (Stripe webhook endpoints): scripts/lib/stack.mjs
// applies it after the peers' migrations.
writeFileSync(join(root, '.wrangler', 'seed-peers.sql'), buildPeerSeedSql(demo, platformHost).join('\n') || 'SELECT 1;')
for (const [binding, text] of files) {
  const file = join(root, '.wrangler', `seed-${binding.toLowerCase()}.sql`)
  writeFileSync(file, text)
  execFileSync(wrangler, ['d1', 'execute', binding, '--local', ...persist, '--file', file], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] })
}
// The demo sales pages' images, in one wrangler call (its `r2 bulk put` takes key/file pairs).
const images = join(root, '.wrangler', 'seed-images.json')
writeFileSync(images, JSON.stringify(demoImageObjects(demo.tenants)))
execFileSync(wrangler, ['r2', 'bulk', 'put', 'coursefront-media', '--local', ...persist, '--filename', images, '--ct', 'image/svg+xml'], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] })
console.log('Seeded demo schools.')
