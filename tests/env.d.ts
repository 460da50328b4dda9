// Types for `env` from cloudflare:test / cloudflare:workers in tests: the app's bindings plus
// the migrations the test setup applies.
import type { D1Migration } from 'cloudflare:test'
import type { Env as AppEnv } from '../app/utils/env.server.ts'

declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: D1Migration[]
      /** Every test project binds the two shards (tests/workers-project.ts, ADR 033). */
      DB_SHARD_0: D1Database
      DB_SHARD_1: D1Database
    }
  }
}

// What tests/setup/bunny-peer-global.ts provides: `inject('bunnyPeer')` in tests.
declare module 'vitest' {
  export interface ProvidedContext {
    bunnyPeer: { origin: string; libraryId: string; apiKey: string; tokenKey: string; webhookSecret: string }
    /** The peer's port when the project reserved it for its bindings (tests/workers-project.ts). */
    bunnyPeerPort: number
  }
}
