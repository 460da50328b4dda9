import { kCurrentWorker } from 'miniflare'
import { PEERS_D1, workersProject } from '../../tests/workers-project.ts'

// The dev peers (DoH responder, custom hostnames API) with their own D1.
export default workersProject({
  name: 'dev-peers',
  main: 'workers/dev-peers/src/index.ts',
  wranglerConfig: 'workers/dev-peers/wrangler.toml',
  include: ['workers/dev-peers/**/*.test.ts'],
  extraD1: [PEERS_D1],
  // wrangler.toml binds APP to the app for `wrangler dev`; here it points back at the peers (tests pass their own APP).
  serviceBindings: { APP: kCurrentWorker },
})
