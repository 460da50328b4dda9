import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { bundleSize, envKeys } from './check-bundles.mjs'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A throw-away tree with the given files. */
function tree(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'check-bundles-test-'))
  made.push(root)
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  return root
}

describe('Env type keys', () => {
  it('reads names, optional marks and binding kinds, through a Pick of another env file', async () => {
    const root = tree({
      'app/utils/env.server.ts': [
        "import type { Job } from '#app/models/job.server.ts'",
        'export interface Job2 { id: string }',
        'export interface Env {',
        '  DB: D1Database',
        '  JOBS?: Queue<Job>',
        '  PEERS?: Fetcher',
        '  MODE: string',
        "  LEVEL?: 'a' | 'b'",
        '}',
      ].join('\n'),
      'workers/w/src/env.ts': [
        "import type { Env } from '#app/utils/env.server.ts'",
        "export type WWorkerEnv = Pick<Env, 'DB' | 'JOBS' | 'MODE'> & {",
        '  FILES: R2Bucket',
        '  TOKEN?: string',
        '}',
      ].join('\n'),
    })
    const keys = await envKeys(root, ['workers/w/src/env.ts'])
    expect(keys['workers/w/src/env.ts'].typeName).toBe('WWorkerEnv')
    expect(keys['workers/w/src/env.ts'].keys).toEqual([
      { name: 'DB', optional: false, kind: 'd1' },
      { name: 'JOBS', optional: true, kind: 'queue' },
      { name: 'MODE', optional: false, kind: 'string' },
      { name: 'FILES', optional: false, kind: 'r2' },
      { name: 'TOKEN', optional: true, kind: 'string' },
    ])
  })

  it('refuses a file without exactly one exported *Env type', async () => {
    const root = tree({ 'workers/v/src/env.ts': 'export type AEnv = { A: string }\nexport type BEnv = { B: string }\n' })
    await expect(envKeys(root, ['workers/v/src/env.ts'])).rejects.toThrow('expected one exported type named *Env, found 2')
  })
})

describe('bundle size', () => {
  it('counts the uploaded modules, raw and gzip, without source maps or the README', () => {
    const main = 'export default { fetch() { return new Response("hello") } }\n'.repeat(50)
    const chunk = 'export const data = ' + JSON.stringify(Array.from({ length: 200 }, (_, i) => `row-${i}`)) + '\n'
    const root = tree({ 'index.js': main, 'chunks/data.js': chunk, 'index.js.map': '{"version":3}'.repeat(1000), 'README.md': 'wrangler output' })
    expect(bundleSize(root)).toEqual({
      raw: Buffer.byteLength(main) + Buffer.byteLength(chunk),
      gzip: gzipSync(main).length + gzipSync(chunk).length,
    })
  })
})
