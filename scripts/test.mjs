#!/usr/bin/env node
// npm test: install (if needed) → chromium (if needed) → tsc --noEmit and npm run build side by
// side → vitest run (node, units and app tiers, then every worker's project; tests/tiers.ts) → e2e
// in Chromium. Stops at the first failure, prints a summary with the seconds of each step and, as
// its last line, "N passed, N failed" (vitest + e2e tests; a failed step that runs no tests —
// install, typecheck, build — counts as one failure).
//
//   npm test                  everything, as CI runs it
//   npm test -- checkout      only the tests whose file path contains "checkout" (vitest and e2e),
//                             with the same setup; no typecheck (the inner loop of one area)
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { bin, bold, dim, ensureChromium, ensureDependencies, green, red, root, run, step, yellow } from './lib/env.mjs'

const resultsDir = join(root, 'test-results')
const vitestJson = join(resultsDir, 'vitest.json')
const e2eSummary = join(resultsDir, 'e2e-summary.json')

const filters = process.argv.slice(2)
const filtered = filters.length > 0

/** Every *.test.ts(x) file of the project (not node_modules, build output or the bench's own deps). */
function testFiles() {
  const skip = new Set(['node_modules', 'build', '.git', '.wrangler', 'test-results'])
  const found = []
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (skip.has(entry.name)) continue
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (/\.test\.tsx?$/.test(entry.name)) found.push(path)
    }
  }
  walk(root)
  return found.sort()
}

const readJson = (file) => {
  try {
    return JSON.parse(readFileSync(file, 'utf8'))
  } catch {
    return null
  }
}

/** Each step: a name, what it runs, and how to count its tests (if it has any). */
const steps = [
  { name: 'install', run: async () => ((await ensureDependencies()) ? 0 : 1) },
  { name: 'chromium', run: async () => ((await ensureChromium()) ? 0 : 1) },
  {
    // tsc is one thread; the build is mostly one too: on two cores they run side by side, each
    // printing its output only when it fails.
    name: 'typecheck+build',
    title: filtered ? 'npm run build' : 'tsc --noEmit and npm run build, side by side',
    run: async () => {
      const timed = async (label, promise) => {
        const t0 = Date.now()
        const code = await promise
        console.log(dim(`  ${label}: ${code === 0 ? 'ok' : 'failed'} in ${((Date.now() - t0) / 1000).toFixed(1)}s`))
        return code
      }
      const [typecheck, build] = await Promise.all([filtered ? 0 : timed('tsc --noEmit', run(bin('tsc'), ['--noEmit'], { quiet: true })), timed('npm run build', run('npm', ['run', 'build', '--silent'], { quiet: true }))])
      if (typecheck !== 0) console.error(red('✖ tsc --noEmit failed'))
      if (build !== 0) console.error(red('✖ npm run build failed'))
      return typecheck || build
    },
  },
  {
    // Issue 26 §2: every worker's production bundle (wrangler deploy --dry-run) under Workers' size
    // limit, and every binding the code names present in its production config.
    name: 'bundles',
    title: 'production bundles and configs (scripts/check-bundles.mjs)',
    skip: () => filtered,
    run: () => run(process.execPath, [join(root, 'scripts', 'check-bundles.mjs')]),
  },
  {
    name: 'vitest',
    title: 'vitest run (node, units, app, workers)',
    before: () => rmSync(vitestJson, { force: true }),
    run: () => run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`, ...(filtered ? ['--passWithNoTests', ...filters] : [])]),
    count: () => {
      const report = readJson(vitestJson)
      if (!report) return null
      // Every test file of the tree ran in some project (tests/tiers.ts and the workers' configs):
      // a file no project includes would otherwise pass silently by never running.
      const ran = new Set((report.testResults ?? []).map((r) => r.name))
      const unrun = filtered ? [] : testFiles().filter((f) => !ran.has(f))
      for (const f of unrun) console.error(red(`✖ ${f.slice(root.length + 1)} ran in no vitest project (tests/tiers.ts, vitest.config.ts)`))
      return { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + (report.numRuntimeErrorTests ?? 0) + unrun.length }
    },
  },
  {
    name: 'e2e',
    title: 'e2e (Chromium against the bundles on workerd)',
    before: () => rmSync(e2eSummary, { force: true }),
    // A filter that names no e2e file skips this step instead of failing it.
    skip: () => filtered && !readdirSync(join(root, 'tests', 'e2e')).some((f) => f.endsWith('.e2e.ts') && filters.some((x) => f.includes(x))),
    run: () => run(process.execPath, [join(root, 'tests', 'e2e', 'run.mjs'), ...filters]),
    count: () => {
      const summary = readJson(e2eSummary)
      return summary ? { passed: summary.passed ?? 0, failed: summary.failed ?? 0 } : null
    },
  },
]

mkdirSync(resultsDir, { recursive: true })
const started = Date.now()
const results = []
let passed = 0
let failed = 0
let stopped = false

for (const s of steps) {
  if (stopped || s.skip?.()) {
    results.push({ ...s, status: 'skipped' })
    continue
  }
  if (s.title) step(s.title)
  s.before?.()
  const t0 = Date.now()
  const code = await s.run()
  const seconds = (Date.now() - t0) / 1000
  const counts = s.count?.() ?? null
  if (counts) {
    passed += counts.passed
    failed += counts.failed
  }
  const ok = code === 0 && !(counts && counts.failed > 0)
  if (!ok) {
    // A failure with no failing test to show for it (crash, compile error) still counts once.
    if (!counts || counts.failed === 0) failed += 1
    stopped = true
  }
  results.push({ ...s, status: ok ? 'ok' : 'failed', seconds, counts })
}

const total = (Date.now() - started) / 1000
console.log(`\n${bold('Summary')}  ${dim(`(${total.toFixed(0)}s)`)}`)
for (const r of results) {
  const mark = r.status === 'ok' ? green('✔') : r.status === 'failed' ? red('✖') : yellow('-')
  const counts = r.counts ? `  ${r.counts.passed} passed, ${r.counts.failed} failed` : ''
  const time = r.seconds !== undefined ? dim(`  ${r.seconds.toFixed(1)}s`) : dim('  skipped')
  console.log(`  ${mark} ${(r.title ?? r.name).padEnd(38)}${counts}${time}`)
}
const failedStep = results.find((r) => r.status === 'failed')
if (failedStep) {
  console.log(red(`\nStopped at: ${failedStep.title ?? failedStep.name}`))
  if (failedStep.name === 'e2e' && existsSync(join(resultsDir, 'e2e'))) console.log(dim('Screenshots of failing pages: test-results/e2e/, server log: test-results/e2e-server.log'))
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failedStep ? 1 : 0)
