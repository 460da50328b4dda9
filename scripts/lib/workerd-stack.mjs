// The local stack of `npm start` and the e2e suite: every worker's deployable bundle (`npm run
// build`: build/worker/server.js and build/workers/<name>/index.js) on ONE workerd through the
// `miniflare` package, with the bindings each worker's own wrangler config declares (D1, R2,
// queues, service bindings, static assets). No `wrangler dev`: Chromium talks to workerd's own
// socket, with no proxy worker whose retry queue can park a GET until another request arrives
// (the 15–30 s stalls, ADR 022) and no file watcher. State lives in `persistTo` under the layout
// `wrangler d1/r2 --persist-to` writes (v3/d1, v3/r2), so scripts/seed.ts seeds it the usual way.
// Runs inside the calling Node process; `stop()` disposes of workerd.
import { createWriteStream, existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { root } from './env.mjs'
import { workerConfigs } from './stack.mjs'

/** The bundle `npm run build` made for a config: the app's, or workers/<name>'s. */
function bundleOf(config) {
  if (config === 'wrangler.toml') return { dir: join(root, 'build', 'worker'), file: 'server.js' }
  const name = config.split('/')[1]
  return { dir: join(root, 'build', 'workers', name), file: 'index.js' }
}

const workerName = (config) => {
  const name = /^\s*name\s*=\s*"([^"]+)"/m.exec(readFileSync(join(root, config), 'utf8'))?.[1]
  if (!name) throw new Error(`${config} has no name`)
  return name
}

/** A development SCHOOL_URL_TEMPLATE (`http://{slug}.localhost:8787`) with this stack's port; nothing for other workers. */
function schoolUrlTemplateOn(bindings, port) {
  const template = bindings?.SCHOOL_URL_TEMPLATE
  if (typeof template !== 'string' || !/^http:\/\/[^/]+:\d+$/.test(template)) return {}
  return { SCHOOL_URL_TEMPLATE: template.replace(/:\d+$/, `:${port}`) }
}

/**
 * Start the stack on 127.0.0.1:`port`. `appVars` override the app's [vars] (like `wrangler dev
 * --var`); `echo` also prints each log line. Every log line (requests as "METHOD /path STATUS (ms)", the workers' console output,
 * runtime errors) goes to `logFile`, each prefixed with an ISO time so a failing test can pick the
 * lines of its own requests.
 */
export async function startWorkerdStack({ port, persistTo, logFile, appVars = {}, echo = false }) {
  const { Miniflare, Log, LogLevel } = await import('miniflare')
  const { unstable_getMiniflareWorkerOptions } = await import('wrangler')
  const out = createWriteStream(logFile, { flags: 'a' })
  // "[mf:info] GET /path 200 OK (3ms)" → "GET /path 200 OK (3ms)"; warnings and errors keep their tag.
  const write = (line) => {
    const plain = line.replace(/\x1b\[[0-9;]*m/g, '').replace(/^\[mf:info\] /, '')
    out.write(`${new Date().toISOString()} ${plain}\n`)
    // npm start: the terminal shows what `wrangler dev` showed (requests, the workers' console).
    if (echo) console.log(plain)
  }
  class FileLog extends Log {
    log(message) {
      for (const line of String(message).split('\n')) if (line.trim()) write(line)
    }
  }

  const workers = workerConfigs().map((config) => {
    const { dir, file } = bundleOf(config)
    if (!existsSync(join(dir, file))) throw new Error(`${join(dir, file)} is missing: run \`npm run build\``)
    const { workerOptions } = unstable_getMiniflareWorkerOptions(join(root, config))
    const isApp = config === 'wrangler.toml'
    return {
      ...workerOptions,
      name: workerName(config),
      modules: [{ type: 'ESModule', path: join(dir, file) }],
      modulesRoot: dir,
      // E-mailed links in development name the port this stack listens on (issue 19 §6): the app's
      // PUBLIC_PORT, and the port of the domains worker's configured SCHOOL_URL_TEMPLATE.
      bindings: { ...workerOptions.bindings, ...(isApp ? { PUBLIC_PORT: String(port), ...appVars } : {}), ...schoolUrlTemplateOn(workerOptions.bindings, port) },
    }
  })

  const v3 = (kind) => join(persistTo, 'v3', kind)
  const mf = new Miniflare({
    host: '127.0.0.1',
    port,
    log: new FileLog(LogLevel.INFO),
    logRequests: true,
    // No request to workers.cloudflare.com for a `cf` object: this machine is offline.
    cf: false,
    handleRuntimeStdio(stdout, stderr) {
      for (const stream of [stdout, stderr]) {
        let rest = ''
        stream.on('data', (chunk) => {
          const lines = (rest + chunk).split('\n')
          rest = lines.pop() ?? ''
          for (const line of lines) if (line.trim()) write(line)
        })
      }
    },
    d1Persist: v3('d1'),
    r2Persist: v3('r2'),
    kvPersist: v3('kv'),
    cachePersist: v3('cache'),
    durableObjectsPersist: v3('do'),
    workers,
  })
  await mf.ready
  write(`workerd ready on 127.0.0.1:${port}: ${workers.map((w) => w.name).join(', ')}`)
  return {
    mf,
    async stop() {
      await mf.dispose().catch(() => {})
      await new Promise((resolvePromise) => out.end(resolvePromise))
    },
  }
}
