import { workersProject } from './workers-project.ts'

// The built app worker (server.ts + build/server), called through exports.default.fetch.
export default workersProject({
  name: 'app',
  main: 'server.ts',
  wranglerConfig: 'wrangler.toml',
  include: ['app/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.ts', 'scripts/**/*.test.ts'],
})
