// Types for `env` from cloudflare:test / cloudflare:workers in tests: the app's bindings plus
// the migrations the test setup applies.
import type { D1Migration } from 'cloudflare:test'
import type { Env as AppEnv } from '../app/utils/env.server.ts'

declare global {
  namespace Cloudflare {
    interface Env extends AppEnv {
      TEST_MIGRATIONS: D1Migration[]
    }
  }
}
