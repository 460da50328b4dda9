import { NODE_TESTS, UNIT_TESTS } from './tiers.ts'
import { PEERS_D1, workersProject } from './workers-project.ts'

// Model functions, crypto and adapters in workerd with the app's bindings (real D1 with the
// migrations, queues) and auxiliary workers, without evaluating the app bundle for every file.
export default workersProject({
  name: 'units',
  wranglerConfig: 'wrangler.toml',
  include: UNIT_TESTS,
  exclude: NODE_TESTS,
  auxiliaryWorkers: ['domains', 'media', 'dev-peers'],
  extraD1: [PEERS_D1],
})
