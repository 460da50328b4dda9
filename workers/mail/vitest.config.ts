import { workersProject } from '../../tests/workers-project.ts'

// The mail worker itself, with its own wrangler config (queue consumer, cron, D1).
export default workersProject({
  name: 'mail-worker',
  main: 'workers/mail/src/index.ts',
  wranglerConfig: 'workers/mail/wrangler.toml',
  include: ['workers/mail/**/*.test.ts'],
})
