// Shared by scripts/start.mjs, scripts/test.mjs and tests/e2e/run.mjs. Plain Node ESM with no
// dependencies: these run before node_modules exists.
import { spawn } from 'node:child_process'
import { existsSync, statSync, utimesSync } from 'node:fs'
import { join, resolve } from 'node:path'

export const root = resolve(import.meta.dirname, '..', '..')
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium'

const color = process.stdout.isTTY && !process.env.NO_COLOR
const paint = (code) => (s) => (color ? `\x1b[${code}m${s}\x1b[0m` : String(s))
export const bold = paint('1')
export const dim = paint('2')
export const green = paint('32')
export const red = paint('31')
export const yellow = paint('33')
export const cyan = paint('36')

export function step(title) {
  console.log(`\n${cyan('▶')} ${bold(title)}`)
}

/** Run a command with inherited output; resolves to its exit code (signals count as failure). */
export function run(cmd, args, { cwd = root, env = {}, quiet = false } = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn(cmd, args, { cwd, stdio: quiet ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'inherit', 'inherit'], env: { ...process.env, ...env } })
    let output = ''
    if (quiet) {
      child.stdout.on('data', (d) => (output += d))
      child.stderr.on('data', (d) => (output += d))
    }
    child.on('error', (error) => {
      console.error(red(`Could not start ${cmd}: ${error.message}`))
      resolvePromise({ code: 127, output })
    })
    child.on('exit', (code, signal) => resolvePromise({ code: code ?? (signal ? 128 : 1), output }))
  }).then((r) => {
    if (quiet && r.code !== 0) process.stderr.write(r.output)
    return r.code
  })
}

export const bin = (name) => join(root, 'node_modules', '.bin', name)

/**
 * `npm ci` when node_modules is missing or package-lock.json changed since the last install: it
 * installs exactly the committed lock and never rewrites it (ADR 008), so a fresh clone stays clean.
 */
export async function ensureDependencies() {
  const lock = join(root, 'package-lock.json')
  const installed = join(root, 'node_modules', '.package-lock.json')
  let reason = null
  if (!existsSync(join(root, 'node_modules')) || !existsSync(installed)) reason = 'node_modules is missing'
  else if (existsSync(lock) && statSync(lock).mtimeMs > statSync(installed).mtimeMs) reason = 'package-lock.json is newer than node_modules'
  if (!reason) return true
  step(`Installing dependencies (${reason})`)
  const code = await run('npm', ['ci', '--no-audit', '--no-fund'])
  if (code !== 0) return false
  // npm may leave the hidden lockfile's time untouched: mark this install as current.
  if (existsSync(installed)) {
    const now = new Date()
    utimesSync(installed, now, now)
  }
  return true
}

const isRoot = () => typeof process.getuid === 'function' && process.getuid() === 0

/** Debian's chromium for the e2e suite; installed through apt when we are root. */
export async function ensureChromium() {
  if (existsSync(CHROMIUM)) return true
  if (!isRoot()) {
    console.error(red(`Chromium is missing at ${CHROMIUM}.`))
    console.error(`Install it with:  sudo apt-get update && sudo apt-get install -y chromium`)
    console.error(`(or point CHROMIUM_PATH at another Chromium/Chrome binary)`)
    return false
  }
  step('Installing chromium (apt-get)')
  const env = { DEBIAN_FRONTEND: 'noninteractive' }
  if ((await run('apt-get', ['update'], { env, quiet: true })) !== 0) return false
  if ((await run('apt-get', ['install', '-y', 'chromium'], { env, quiet: true })) !== 0) return false
  return existsSync(CHROMIUM)
}
