#!/usr/bin/env node
// Bundles every workers/<name>/wrangler.toml into build/workers/<name>/index.js, and the app
// (wrangler.toml: server.ts + build/server) into build/worker/server.js, with wrangler's own bundler
// (`wrangler deploy --dry-run --outdir`): the deployable bundles. The vitest projects load the
// workers the app's service bindings point at as auxiliary workers; the e2e stack
// (scripts/lib/workerd-stack.mjs) serves all of them on one workerd. Part of `npm run build`.
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

/** `wrangler deploy --dry-run` of one config into `outdir` (absolute: wrangler resolves a relative one against the config's directory). */
function bundle(config, outdir, output) {
  rmSync(outdir, { recursive: true, force: true })
  const result = spawnSync(wrangler, ['deploy', '--dry-run', '--outdir', outdir, '-c', config], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' },
  })
  if (result.status !== 0 || !existsSync(join(outdir, output))) {
    process.stderr.write(result.stdout + result.stderr)
    console.error(`✖ could not bundle ${config}`)
    process.exit(1)
  }
  console.log(`✔ ${join(outdir, output).slice(root.length + 1)}`)
}

rmSync(outRoot, { recursive: true, force: true })
for (const name of names) bundle(join('workers', name, 'wrangler.toml'), join(outRoot, name), 'index.js')
bundle('wrangler.toml', join(root, 'build', 'worker'), 'server.js')
