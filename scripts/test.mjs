#!/usr/bin/env node
// npm test: install (if needed) → chromium (if needed) → tsc --noEmit → npm run build →
// vitest run (every workerd project) → e2e in Chromium. Stops at the first failure, prints a
// summary and, as its last line, "N passed, N failed" (vitest + e2e tests; a failed step that
// runs no tests — install, typecheck, build — counts as one failure).
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { bin, bold, dim, ensureChromium, ensureDependencies, green, red, root, run, step, yellow } from './lib/env.mjs'

const resultsDir = join(root, 'test-results')
const vitestJson = join(resultsDir, 'vitest.json')
const e2eSummary = join(resultsDir, 'e2e-summary.json')

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
  { name: 'typecheck', title: 'tsc --noEmit', run: () => run(bin('tsc'), ['--noEmit']) },
  { name: 'build', title: 'npm run build', run: () => run('npm', ['run', 'build', '--silent']) },
  {
    name: 'vitest',
    title: 'vitest run (workerd projects)',
    before: () => rmSync(vitestJson, { force: true }),
    run: () => run(bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`]),
    count: () => {
      const report = readJson(vitestJson)
      return report ? { passed: report.numPassedTests ?? 0, failed: (report.numFailedTests ?? 0) + (report.numRuntimeErrorTests ?? 0) } : null
    },
  },
  {
    name: 'e2e',
    title: 'e2e (Chromium against wrangler dev)',
    before: () => rmSync(e2eSummary, { force: true }),
    run: () => run(process.execPath, [join(root, 'tests', 'e2e', 'run.mjs')]),
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
  if (stopped) {
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
  if (code !== 0) {
    // A failure with no failing test to show for it (crash, compile error) still counts once.
    if (!counts || counts.failed === 0) failed += 1
    stopped = true
  }
  results.push({ ...s, status: code === 0 ? 'ok' : 'failed', seconds, counts })
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
  if (failedStep.name === 'e2e' && existsSync(join(resultsDir, 'e2e'))) console.log(dim('Screenshots of failing pages: test-results/e2e/, server log: test-results/e2e-wrangler.log'))
}
console.log(`${passed} passed, ${failed} failed`)
process.exit(failedStep ? 1 : 0)
