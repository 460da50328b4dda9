import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers'
import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

const root = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '')

export default defineProject(async () => {
  const migrations = await readD1Migrations(`${root}/migrations`)
  return {
    root,
    plugins: [
      cloudflareTest({
        // The mail worker itself, with its own wrangler config (queue consumer, cron, D1).
        main: `${root}/workers/mail/src/index.ts`,
        wrangler: { configPath: `${root}/workers/mail/wrangler.toml` },
        miniflare: { bindings: { TEST_MIGRATIONS: migrations, ENVIRONMENT: 'test' } },
      }),
    ],
    test: {
      name: 'mail-worker',
      root,
      include: ['workers/mail/**/*.test.ts'],
      setupFiles: ['./tests/setup/apply-migrations.ts'],
      testTimeout: 30_000,
    },
  }
})
