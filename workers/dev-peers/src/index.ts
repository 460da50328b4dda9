// Worker entry of coursefront-dev-peers (development only; see wrangler.toml).
import { peersApp } from './app.ts'
import type { PeersEnv } from './env.ts'

export default {
  fetch: peersApp.fetch,
} satisfies ExportedHandler<PeersEnv>
