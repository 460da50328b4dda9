// The top-level [vars] of a wrangler.toml, read without a TOML library: the peer, its CLI, the
// vitest global setup and the bench run before (or outside) anything that bundles a parser.
// Plain ESM so `node bench/…` can import it too.
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..')

/**
 * `KEY = "value"` (or a bare number/boolean) lines between `[vars]` and the next table header.
 * Enough for our configs; not a general TOML reader (no multi-line strings, no inline tables).
 * @param {string} configPath path relative to the repository root, or absolute
 * @returns {Record<string, string>}
 */
export function readWranglerVars(configPath) {
  const text = readFileSync(configPath.startsWith('/') ? configPath : join(root, configPath), 'utf8')
  /** @type {Record<string, string>} */
  const vars = {}
  let inVars = false
  for (const raw of text.split('\n')) {
    const line = raw.trim()
    if (line.startsWith('[')) {
      inVars = line === '[vars]'
      continue
    }
    if (!inVars || line === '' || line.startsWith('#')) continue
    const match = /^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'([^']*)'|([^#\s]+))/.exec(line)
    if (match) vars[match[1]] = match[2] !== undefined ? JSON.parse(`"${match[2]}"`) : (match[3] ?? match[4])
  }
  return vars
}

/**
 * The Bunny Stream dev keys of the media worker (workers/media/wrangler.toml), which the peer must
 * be started with so the worker's signatures verify.
 * @returns {{ libraryId: string, apiKey: string, tokenKey: string, webhookSecret: string }}
 */
export function mediaWorkerBunnyKeys() {
  const vars = readWranglerVars('workers/media/wrangler.toml')
  const pick = (/** @type {string} */ name) => {
    const value = vars[name]
    if (!value) throw new Error(`workers/media/wrangler.toml [vars] has no ${name}`)
    return value
  }
  return { libraryId: pick('BUNNY_LIBRARY_ID'), apiKey: pick('BUNNY_API_KEY'), tokenKey: pick('BUNNY_TOKEN_KEY'), webhookSecret: pick('BUNNY_WEBHOOK_SECRET') }
}
