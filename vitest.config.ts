import { defineConfig } from 'vitest/config'

// Each test runs in the cheapest runtime that can run it (tests/tiers.ts, docs/testing.md):
// `node` for pure code, `units` (workerd + D1, no app bundle) for models, crypto and adapters, `app`
// (the built app worker with its auxiliary workers) for routes and flows, then one workerd project
// per worker of workers/ with its own wrangler config.
export default defineConfig({
  test: {
    // Both cores: every file has its own runtime and its own storage, so files never share state.
    maxWorkers: 2,
    projects: [
      './tests/vitest.node.config.ts',
      './tests/vitest.units.config.ts',
      './tests/vitest.app.config.ts',
      './workers/mail/vitest.config.ts',
      './workers/webhooks/vitest.config.ts',
      './workers/invoicing/vitest.config.ts',
      './workers/domains/vitest.config.ts',
      './workers/dev-peers/vitest.config.ts',
      './workers/media/vitest.config.ts',
    ],
  },
})
