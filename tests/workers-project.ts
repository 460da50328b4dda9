// One vitest project per worker, all in workerd with the real migrations applied per test file.
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')

export function workersProject({ name, main, wranglerConfig, include }: { name: string; main: string; wranglerConfig: string; include: string[] }) {
  return defineProject(async () => {
    const migrations = await readD1Migrations(`${root}/migrations`)
    return {
      root,
      plugins: [
        cloudflareTest({
          main: `${root}/${main}`,
          wrangler: { configPath: `${root}/${wranglerConfig}` },
          miniflare: { bindings: { TEST_MIGRATIONS: migrations, ENVIRONMENT: 'test' } },
        }),
      ],
      test: { name, root, include, setupFiles: ['./tests/setup/apply-migrations.ts'], testTimeout: 30_000 },
    }
  })
}
