import { NODE_TESTS, UNIT_TESTS, APP_TESTS } from './tiers.ts'
import { PEERS_D1, workersProject } from './workers-project.ts'

// The built app worker (server.ts + build/server), called through exports.default.fetch. Its
// service bindings reach the bundled domains worker and dev peers (auxiliary workers).
export default workersProject({
  name: 'app',
  main: 'server.ts',
  wranglerConfig: 'wrangler.toml',
  include: APP_TESTS,
  exclude: [...NODE_TESTS, ...UNIT_TESTS],
  auxiliaryWorkers: ['domains', 'media', 'dev-peers'],
  extraD1: [PEERS_D1],
  globalSetup: ['./tests/setup/bunny-peer-global.ts'],
  bunnyPeerBinding: true,
})
