import { PEERS_D1, workersProject } from '../../tests/workers-project.ts'

// The invoicing worker with its own wrangler config (queue + dead letter consumer, D1), next to the
// bundled dev peers: the invoicing systems are the peers, reached through DEV_PEERS.
export default workersProject({
  name: 'invoicing-worker',
  main: 'workers/invoicing/src/index.ts',
  wranglerConfig: 'workers/invoicing/wrangler.toml',
  include: ['workers/invoicing/**/*.test.ts'],
  auxiliaryWorkers: ['dev-peers'],
  extraD1: [PEERS_D1],
})
