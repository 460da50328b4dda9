import { PEERS_D1, workersProject } from '../../tests/workers-project.ts'

// The webhooks worker with its own wrangler config (three queue consumers, cron, D1), next to the
// bundled dev peers: deliveries go to the peers' webhook receiver through DEV_PEERS.
export default workersProject({
  name: 'webhooks-worker',
  main: 'workers/webhooks/src/index.ts',
  wranglerConfig: 'workers/webhooks/wrangler.toml',
  include: ['workers/webhooks/**/*.test.ts'],
  auxiliaryWorkers: ['dev-peers'],
  extraD1: [PEERS_D1],
})
