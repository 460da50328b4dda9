// The house rules (issue 20): which folder may import which, read from the source's static
// imports (type-only imports excluded: they vanish at build time). Pure: give it the files'
// paths and texts, it returns the violations. docs/architecture.md "Where new code goes".
//   drizzle   drizzle-orm and the schema's tables only in app/models/ and app/db/
//   models    app/models/ imports only models, db, utils, domain, i18n
//   utils     app/utils/ and app/domain/ import only utils, domain, i18n
//   design    app/components/ (the design system) imports only components, domain, utils, i18n
//   routes    nothing imports a route module
//   workers   nothing in app/ imports a worker (workers sit on top and reuse the app's modules)
//   cycles    no import cycles among app/ files
//   shards    nothing but app/db/shards.server.ts names a shard binding (DB_SHARD_n): routes and
//             workers get the school's shard with its tenant (ADR 033)
//   sql       raw D1 statements (`.prepare(`) only in app/models/ and app/db/: a query written by
//             hand is a model function too (the dev peers, which stand in for other companies'
//             services with stores of their own, are not the app's data)
import path from 'node:path'

const IMPORT = /(?:^|\n)\s*(import|export)\s+(type\s+)?([\s\S]*?)\s+from\s+['"]([^'"]+)['"]/g
const SIDE_EFFECT = /(?:^|\n)\s*import\s+['"]([^'"]+)['"]/g

/** Static imports of a module: { spec, names, typeOnly }. */
export function importsOf(source) {
  const found = []
  for (const m of source.matchAll(IMPORT)) {
    const [, , typeKeyword, clause, spec] = m
    const braces = /\{([\s\S]*)\}/.exec(clause)
    const named = braces ? braces[1].split(',').map((s) => s.trim()).filter(Boolean) : []
    const defaultOrStar = clause.replace(/\{[\s\S]*\}/, '').replace(/,/g, ' ').trim()
    const valueNames = named.filter((n) => !n.startsWith('type ')).map((n) => n.split(/\s+as\s+/)[0].trim())
    const typeOnly = !!typeKeyword || (!defaultOrStar && named.length > 0 && valueNames.length === 0)
    found.push({ spec, names: valueNames, typeOnly, whole: !!defaultOrStar && !typeKeyword })
  }
  for (const m of source.matchAll(SIDE_EFFECT)) found.push({ spec: m[1], names: [], typeOnly: false, whole: true })
  return found
}

/** `app/models/x.server.ts` → 'models'; workers → 'workers'; null outside app/ and workers/. */
export function layerOf(file) {
  const parts = file.split('/')
  if (parts[0] === 'workers') return 'workers'
  if (parts[0] !== 'app') return null
  if (parts.length === 2) return 'app-root'
  return parts[1]
}

/** Where an import points inside the repository (a path without extension), or null for a package. */
export function resolveImport(file, spec, known) {
  let base
  if (spec.startsWith('#app/')) base = `app/${spec.slice(5)}`
  else if (spec.startsWith('#tests/')) base = `tests/${spec.slice(7)}`
  else if (spec.startsWith('#workers/')) base = `workers/${spec.slice(9)}`
  else if (spec.startsWith('.')) base = path.posix.normalize(path.posix.join(path.posix.dirname(file), spec))
  else return null
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`, base.replace(/\.js$/, '.ts'), base.replace(/\.mjs$/, '.mts')]) if (known.has(candidate)) return candidate
  return base
}

const isTest = (file) => /\.test\.(ts|tsx|mjs)$/.test(file) || /test-helpers\.ts$/.test(file) || file.startsWith('tests/')
const SCHEMA = 'app/db/schema.server.ts'
/** Constants of the schema (enums, limits) may be imported anywhere; its tables (camelCase) only by models and db. */
const isSchemaConstant = (name) => /^[A-Z][A-Z0-9_]*$/.test(name)

const SHARDS_MODULE = 'app/db/shards.server.ts'
/** A shard binding named in code (comments aside): `env.DB_SHARD_0`, `env['DB_SHARD_1']`, `env[`DB_SHARD_${i}`]`. The type `DB_SHARD_${number}` is not a use. */
const SHARD_BINDING_USE = /DB_SHARD_(?:\d|\$\{(?!number\}))/
const RAW_STATEMENT = /\.prepare\(/
const mayWriteSql = (file) => file.startsWith('app/models/') || file.startsWith('app/db/') || file.startsWith('workers/dev-peers/')
const withoutComments = (source) => source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1')

const ALLOWED = {
  models: new Set(['models', 'db', 'utils', 'domain', 'i18n']),
  utils: new Set(['utils', 'domain', 'i18n']),
  domain: new Set(['domain', 'utils', 'i18n']),
  components: new Set(['components', 'domain', 'utils', 'i18n']),
}

/**
 * The violations of `files` (Map path → source), each `{ rule, file, target }`, sorted. Test files
 * are not checked (they may reach anything they test).
 */
export function checkLayers(files) {
  const known = new Set(files.keys())
  const violations = []
  const graph = new Map()
  for (const [file, source] of files) {
    if (isTest(file)) continue
    const layer = layerOf(file)
    if (!layer) continue
    const code = withoutComments(source)
    if (file !== SHARDS_MODULE && SHARD_BINDING_USE.test(code)) violations.push({ rule: 'shards', file, target: 'DB_SHARD_ binding' })
    if (!mayWriteSql(file) && RAW_STATEMENT.test(code)) violations.push({ rule: 'sql', file, target: 'raw D1 statement' })
    const edges = []
    for (const imp of importsOf(source)) {
      if (imp.typeOnly) continue
      const target = resolveImport(file, imp.spec, known)
      const inData = layer === 'models' || layer === 'db'
      if (!inData && (imp.spec === 'drizzle-orm' || imp.spec.startsWith('drizzle-orm/'))) violations.push({ rule: 'drizzle', file, target: imp.spec })
      if (!inData && target === SCHEMA && (imp.whole || imp.names.some((n) => !isSchemaConstant(n)))) violations.push({ rule: 'drizzle', file, target: `${SCHEMA} (tables)` })
      if (!target) continue
      const targetLayer = layerOf(target)
      if (targetLayer === 'routes' && layer !== 'routes' && layer !== 'app-root') violations.push({ rule: 'routes', file, target })
      if (targetLayer === 'workers' && layer !== 'workers') violations.push({ rule: 'workers', file, target })
      const allowed = ALLOWED[layer]
      if (allowed && targetLayer && targetLayer !== 'app-root' && !allowed.has(targetLayer)) violations.push({ rule: layer === 'components' ? 'design' : layer === 'domain' ? 'utils' : layer, file, target })
      if (target.startsWith('app/') && known.has(target)) edges.push(target)
    }
    if (file.startsWith('app/')) graph.set(file, edges)
  }
  for (const cycle of cyclesOf(graph)) violations.push({ rule: 'cycles', file: cycle[0], target: cycle.join(' → ') })
  const key = (v) => `${v.rule} ${v.file} ${v.target}`
  return [...new Map(violations.map((v) => [key(v), v])).values()].sort((a, b) => key(a).localeCompare(key(b)))
}

/** Each elementary cycle found by a depth-first walk, rotated to start at its smallest file. */
function cyclesOf(graph) {
  const cycles = new Map()
  const state = new Map()
  const stack = []
  const visit = (node) => {
    state.set(node, 'open')
    stack.push(node)
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === 'open') {
        const cycle = stack.slice(stack.indexOf(next))
        const start = cycle.indexOf([...cycle].sort()[0])
        const rotated = [...cycle.slice(start), ...cycle.slice(0, start)]
        cycles.set(rotated.join('|'), [...rotated, rotated[0]])
      } else if (!state.has(next)) visit(next)
    }
    stack.pop()
    state.set(node, 'done')
  }
  for (const node of [...graph.keys()].sort()) if (!state.has(node)) visit(node)
  return [...cycles.values()]
}

export const violationKey = (v) => `${v.rule}: ${v.file} → ${v.target}`
