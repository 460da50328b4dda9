import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')

// Tests of Node-side tooling (scripts/: local protocol peers and friends), in plain Node rather
// than workerd: they listen on sockets and drive real Node clients.
export default defineProject({
  test: {
    name: 'node',
    root,
    environment: 'node',
    include: ['scripts/**/*.test.ts'],
    testTimeout: 30_000,
  },
})
