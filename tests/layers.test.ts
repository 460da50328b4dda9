// Issue 20: the house rules (scripts/lib/layers.mjs) hold for the repository — no violation beyond
// the grandfathered list (scripts/layers-baseline.json, which only shrinks) — and the checker
// catches each kind of violation (shown failing on purpose on made-up files).
import { describe, expect, it } from 'vitest'
import { BASELINE, compareWithBaseline, repositoryFiles } from '../scripts/check-layers.mjs'
import { checkLayers, importsOf, violationKey } from '../scripts/lib/layers.mjs'
import { readFileSync } from 'node:fs'

type Violation = { rule: string; file: string; target: string }
const check = (files: Record<string, string>) => (checkLayers(new Map(Object.entries(files))) as Violation[]).map((v) => violationKey(v) as string)

describe('the house rules', () => {
  it('hold for this repository: nothing new beyond the grandfathered list, and nothing listed that is gone', () => {
    const found = checkLayers(repositoryFiles()) as Violation[]
    const baseline = JSON.parse(readFileSync(BASELINE, 'utf8')) as string[]
    expect(compareWithBaseline(found, baseline)).toEqual({ added: [], gone: [] })
    // No cycles at all, grandfathered or not.
    expect(found.filter((v) => v.rule === 'cycles')).toEqual([])
  })

  it('fail on drizzle or a table outside models and db, but let enums through', () => {
    expect(
      check({
        'app/payments/x.server.ts': "import { and } from 'drizzle-orm'\nimport { transactions, TRANSACTION_STATUSES } from '#app/db/schema.server.ts'\n",
        'app/payments/y.server.ts': "import { TRANSACTION_STATUSES } from '#app/db/schema.server.ts'\nimport type { Transaction } from '#app/models/transaction.server.ts'\n",
        'app/models/z.server.ts': "import { eq } from 'drizzle-orm'\nimport { transactions } from '#app/db/schema.server.ts'\n",
        'app/db/schema.server.ts': 'export const transactions = 1\n',
      }),
    ).toEqual(['drizzle: app/payments/x.server.ts → app/db/schema.server.ts (tables)', 'drizzle: app/payments/x.server.ts → drizzle-orm'])
  })

  it('fail when a model, a helper or a design-system component reaches up, or anything in app imports a route or a worker', () => {
    expect(
      check({
        'app/models/a.server.ts': "import { send } from '#app/mail/send.server.ts'\nimport { b } from './b.server.ts'\nimport { limit } from '#app/domain/limits.ts'\n",
        'app/models/b.server.ts': 'export const b = 1\n',
        'app/mail/send.server.ts': 'export const send = 1\n',
        'app/domain/limits.ts': 'export const limit = 1\n',
        'app/utils/c.server.ts': "import { b } from '#app/models/b.server.ts'\n",
        'app/components/d.tsx': "import { Player } from '#app/player/player.tsx'\nimport type { X } from '#app/checkout/x.ts'\n",
        'app/player/player.tsx': 'export const Player = 1\n',
        'app/checkout/x.ts': 'export type X = 1\n',
        'app/checkout/e.server.ts': "import { loader } from '#app/routes/home.tsx'\n",
        'app/routes/home.tsx': 'export const loader = 1\n',
        'app/payments/f.server.ts': "import { consume } from '#workers/mail/src/consumer.ts'\n",
        'workers/mail/src/consumer.ts': "import { b } from '#app/models/b.server.ts'\nexport const consume = 1\n",
      }),
    ).toEqual([
      'design: app/components/d.tsx → app/player/player.tsx',
      'models: app/models/a.server.ts → app/mail/send.server.ts',
      'routes: app/checkout/e.server.ts → app/routes/home.tsx',
      'utils: app/utils/c.server.ts → app/models/b.server.ts',
      'workers: app/payments/f.server.ts → workers/mail/src/consumer.ts',
    ])
  })

  it('fail on an import cycle, however long, but not on type-only imports', () => {
    expect(
      check({
        'app/payments/a.server.ts': "import { b } from './b.server.ts'\n",
        'app/payments/b.server.ts': "import { c } from '#app/checkout/c.server.ts'\n",
        'app/checkout/c.server.ts': "import { a } from '#app/payments/a.server.ts'\n",
        'app/payments/d.server.ts': "import type { E } from './e.server.ts'\n",
        'app/payments/e.server.ts': "import { d } from './d.server.ts'\n",
      }),
    ).toEqual(['cycles: app/checkout/c.server.ts → app/checkout/c.server.ts → app/payments/a.server.ts → app/payments/b.server.ts → app/checkout/c.server.ts'])
  })

  it('fail on a raw D1 statement outside models and db (the dev peers and comments aside)', () => {
    expect(
      check({
        'app/schools/export.server.ts': "export const all = (d1, t) => d1.prepare('SELECT * FROM ' + t).all()\n",
        'workers/mail/src/consumer.ts': "export const one = (env) => env.DB.prepare('SELECT 1').first()\n",
        'app/models/school-rows.server.ts': "export const rows = (d1) => d1.prepare('SELECT 1').all()\n",
        'app/db/shards.server.ts': "export const ping = (d1) => d1.prepare('SELECT 1').run()\n",
        'workers/dev-peers/src/store.ts': "export const get = (d1) => d1.prepare('SELECT 1').first()\n",
        'app/payments/notes.server.ts': '// not d1.prepare(sql) here: the model does it\nexport const x = 1\n',
        'app/models/x.server.test.ts': "const n = env.DB.prepare('SELECT 1')\n",
      }),
    ).toEqual(['sql: app/schools/export.server.ts → raw D1 statement', 'sql: workers/mail/src/consumer.ts → raw D1 statement'])
  })

  it('fail when anything but app/db/shards.server.ts names a shard binding (ADR 033), in code, not in a comment or the Env type', () => {
    expect(
      check({
        'app/routes/admin.tsx': 'export const loader = ({ context }) => context.cloudflare.env.DB_SHARD_1.batch([])\n',
        'workers/mail/src/consumer.ts': 'export const pick = (env, i) => env[`DB_SHARD_${i}`]\n',
        'app/utils/env.server.ts': '// tenant data: DB_SHARD_0 … DB_SHARD_1\nexport type Env = { [shard: `DB_SHARD_${number}`]: D1Database }\n',
        'app/db/shards.server.ts': 'export const first = (env) => env.DB_SHARD_0\n',
        'app/models/x.server.test.ts': 'const d1 = env.DB_SHARD_0\n',
      }),
    ).toEqual(['shards: app/routes/admin.tsx → DB_SHARD_ binding', 'shards: workers/mail/src/consumer.ts → DB_SHARD_ binding'])
  })

  it('reads every static import form', () => {
    const imports = importsOf(
      "import a from 'x'\nimport { b, type C } from './y.ts'\nimport type { D } from './z.ts'\nimport { type E } from './w.ts'\nexport { f } from './v.ts'\nimport './side.css'\n",
    ) as Array<{ spec: string; typeOnly: boolean }>
    expect(imports.map((i) => `${i.spec}:${i.typeOnly}`)).toEqual(['x:false', './y.ts:false', './z.ts:true', './w.ts:true', './v.ts:false', './side.css:false'])
  })
})
