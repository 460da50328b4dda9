import { fileURLToPath } from 'node:url'
import { defineProject } from 'vitest/config'
import { NODE_TESTS } from './tiers.ts'

const root = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')

// Pure code and Node-side tooling (scripts/: local protocol peers, the demo seed) in plain Node:
// no D1, no Workers API, no WebCrypto or scrypt (those stay in workerd, tests/tiers.ts).
export default defineProject({
  test: {
    name: 'node',
    root,
    environment: 'node',
    include: NODE_TESTS,
    testTimeout: 30_000,
  },
})
