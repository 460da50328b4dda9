import { defineConfig } from 'vitest/config'

// Every test of the product runs in workerd: one project per worker (each with its own wrangler
// config). The `node` project tests Node-side tooling (the local Bunny Stream peer).
export default defineConfig({
  test: {
    projects: ['./tests/vitest.app.config.ts', './workers/mail/vitest.config.ts', './workers/webhooks/vitest.config.ts', './workers/invoicing/vitest.config.ts', './workers/domains/vitest.config.ts', './workers/dev-peers/vitest.config.ts', './workers/media/vitest.config.ts', './tests/vitest.node.config.ts'],
  },
})
