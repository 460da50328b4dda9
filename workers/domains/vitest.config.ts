import { PEERS_D1, workersProject } from '../../tests/workers-project.ts'

// The domains worker (HTTP API + cron), talking to the dev peers' bundle through DEV_PEERS, as in
// development. PEERS_DB is bound here too so each test file migrates the peers' database.
export default workersProject({
  name: 'domains-worker',
  main: 'workers/domains/src/index.ts',
  wranglerConfig: 'workers/domains/wrangler.toml',
  include: ['workers/domains/**/*.test.ts'],
  auxiliaryWorkers: ['dev-peers'],
  extraD1: [PEERS_D1],
})
