import { PEERS_D1, workersProject } from '../../tests/workers-project.ts'

// The media worker (upload API, public serving, cron) with the dev peers' S3 peer next to it
// (auxiliary worker, reached through DEV_PEERS in the tests only), and the Bunny Stream peer in
// Node (`inject('bunnyPeer')`).
export default workersProject({
  name: 'media-worker',
  main: 'workers/media/src/index.ts',
  wranglerConfig: 'workers/media/wrangler.toml',
  include: ['workers/media/**/*.test.ts'],
  auxiliaryWorkers: ['dev-peers'],
  extraD1: [PEERS_D1],
  globalSetup: ['./tests/setup/bunny-peer-global.ts'],
})
