import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')

export default defineProject(async () => {
  const migrations = await readD1Migrations(`${root}/migrations`)
  return {
    root,
    plugins: [
      cloudflareTest({
        // The built worker (server.ts + build/server), exercised through SELF.fetch.
        main: `${root}/server.ts`,
        wrangler: { configPath: `${root}/wrangler.toml` },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, ENVIRONMENT: 'test' } },
      }),
    ],
    test: {
      name: 'app',
      root,
      include: ['app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts', 'scripts/**/*.test.ts'],
      setupFiles: ['./tests/setup/apply-migrations.ts'],
      testTimeout: 30_000,
    },
  }
})
