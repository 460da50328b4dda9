import { defineConfig } from 'vitest/config'

// Every test runs in workerd. One project per worker (each with its own wrangler config).
export default defineConfig({
  test: {
    projects: ['./tests/vitest.app.config.ts', './workers/mail/vitest.config.ts', './workers/domains/vitest.config.ts', './workers/dev-peers/vitest.config.ts', './workers/media/vitest.config.ts'],
  },
})
