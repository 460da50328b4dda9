import { PEERS_D1, workersProject } from '../../tests/workers-project.ts'

// The mail worker itself, with its own wrangler config (queue consumers, cron, D1), next to the
// bundled dev peers: Mailchimp is the peer, reached through DEV_PEERS.
export default workersProject({
  name: 'mail-worker',
  main: 'workers/mail/src/index.ts',
  wranglerConfig: 'workers/mail/wrangler.toml',
  // workers/shared's tests (the queue skeleton, backoff, zodJson) run here, with the consumers that use them.
  include: ['workers/mail/**/*.test.ts', 'workers/shared/**/*.test.ts'],
  auxiliaryWorkers: ['dev-peers'],
  extraD1: [PEERS_D1],
})
