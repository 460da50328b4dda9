import { PEERS_D1, workersProject } from '../../tests/workers-project.ts'

// The dev peers (DoH responder, custom hostnames API) with their own D1.
export default workersProject({
  name: 'dev-peers',
  main: 'workers/dev-peers/src/index.ts',
  wranglerConfig: 'workers/dev-peers/wrangler.toml',
  include: ['workers/dev-peers/**/*.test.ts'],
  extraD1: [PEERS_D1],
})
