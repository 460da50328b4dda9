#!/usr/bin/env node
// Bundles every workers/<name>/wrangler.toml into build/workers/<name>/index.js with wrangler's
// own bundler (`wrangler deploy --dry-run --outdir`), so the app's vitest project can load the
// workers its service bindings point at (DOMAINS, DEV_PEERS) as auxiliary workers.
// Part of `npm run build`.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '..')
const wrangler = join(root, 'node_modules', '.bin', 'wrangler')
const workersDir = join(root, 'workers')
const outRoot = join(root, 'build', 'workers')

const names = existsSync(workersDir)
  ? readdirSync(workersDir, { withFileTypes: true })
      .filter((e) => e.isDirectory() && existsSync(join(workersDir, e.name, 'wrangler.toml')))
      .map((e) => e.name)
      .sort()
  : []

rmSync(outRoot, { recursive: true, force: true })
for (const name of names) {
  // --outdir must be absolute: wrangler resolves a relative one against the config's directory.
  const outdir = join(outRoot, name)
  const result = spawnSync(wrangler, ['deploy', '--dry-run', '--outdir', outdir, '-c', join('workers', name, 'wrangler.toml')], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' },
  })
  if (result.status !== 0 || !existsSync(join(outdir, 'index.js'))) {
    process.stderr.write(result.stdout + result.stderr)
    console.error(`✖ could not bundle workers/${name}`)
    process.exit(1)
  }
  console.log(`✔ build/workers/${name}/index.js`)
}
