#!/usr/bin/env node
// node scripts/check-layers.mjs [--write-baseline]: the house rules (scripts/lib/layers.mjs) over
// app/ and workers/. Violations that predate the rules are listed in scripts/layers-baseline.json
// and only ever shrink: a new violation fails, and so does a listed one that is gone (take it off
// the list, with --write-baseline). tests/layers.test.ts runs the same check in `npm test`.
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import path from 'node:path'
import { checkLayers, violationKey } from './lib/layers.mjs'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BASELINE = path.join(ROOT, 'scripts/layers-baseline.json')

export function repositoryFiles(root = ROOT) {
  const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', 'app', 'workers'], { cwd: root, encoding: 'utf8' })
  const files = new Map()
  for (const file of listed.split('\n').filter((f) => /\.(ts|tsx)$/.test(f) && !f.endsWith('.d.ts') && (f.startsWith('app/') || /^workers\/[^/]+\/src\//.test(f)))) {
    try {
      files.set(file, readFileSync(path.join(root, file), 'utf8'))
    } catch {
      // Deleted in the work tree but still in the index.
    }
  }
  return files
}

export function compareWithBaseline(found, baseline) {
  const now = new Set(found.map(violationKey))
  const known = new Set(baseline)
  return { added: [...now].filter((k) => !known.has(k)), gone: [...known].filter((k) => !now.has(k)) }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const found = checkLayers(repositoryFiles())
  if (process.argv.includes('--write-baseline')) {
    writeFileSync(BASELINE, `${JSON.stringify(found.map(violationKey), null, 2)}\n`)
    console.log(`${found.length} grandfathered violations written to scripts/layers-baseline.json`)
    process.exit(0)
  }
  const { added, gone } = compareWithBaseline(found, JSON.parse(readFileSync(BASELINE, 'utf8')))
  for (const k of added) console.error(`✖ ${k}`)
  for (const k of gone) console.error(`✔ fixed, take it off scripts/layers-baseline.json: ${k}`)
  console.log(`${found.length} violations, ${added.length} new, ${gone.length} fixed`)
  process.exit(added.length || gone.length ? 1 : 0)
}
