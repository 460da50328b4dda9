import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const root = join(import.meta.dirname, '..')

describe('npm run deploy -- --dry-run', () => {
  it('prints the whole plan for the repository configs without an account, in dependency order', () => {
    // No credentials and an empty home: nothing wrangler could use to reach an account.
    const home = mkdtempSync(join(tmpdir(), 'deploy-dry-run-'))
    try {
      const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CLOUDFLARE_')))
      const result = spawnSync(process.execPath, [join(root, 'scripts', 'deploy.mjs'), '--dry-run'], { cwd: root, encoding: 'utf8', env: { ...env, HOME: home, NO_COLOR: '1' } })
      expect(result.stderr).toBe('')
      expect(result.status).toBe(0)
      const lines = result.stdout.split('\n')
      const steps = lines.filter((l) => /^\s+would /.test(l))
      for (const verb of ['create D1 database', 'create R2 bucket', 'set    CORS rules', 'create queue', 'set    Cloudflare for SaaS fallback origin', 'apply  migrations', 'deploy worker']) {
        expect(steps.some((l) => l.includes(`would ${verb}`))).toBe(true)
      }
      // Every worker is listed after each worker it names in "after …".
      const deploys = steps.filter((l) => l.includes('would deploy worker')).map((l) => ({ name: /worker (\S+)/.exec(l)![1], after: /after ([^—]+)/.exec(l)?.[1].trim().split(', ') ?? [] }))
      expect(deploys.length).toBeGreaterThan(1)
      deploys.forEach((d, i) => {
        for (const dep of d.after) expect(deploys.slice(0, i).map((x) => x.name)).toContain(dep)
      })
      expect(deploys.map((d) => d.name)).not.toContain('coursefront-dev-peers')
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
