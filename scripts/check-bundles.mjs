#!/usr/bin/env node
// CI check of the production configs (issue 26 §2, docs/deploy.md), needing no Cloudflare account:
//  1. the plan's config rules (scripts/lib/deploy-plan.mjs): every deployed worker has
//     [env.production], service bindings point at deployed workers, produced queues have a
//     consumer, one migrations folder per database, one "*/*" route and fallback origin;
//  2. every worker's production bundle, built as the deploy builds it (`wrangler deploy --dry-run
//     --env production --outdir`, two at a time), stays under the Workers paid plan's size limit:
//     10 MB after compression, measured here as the gzip size of the uploaded modules;
//  3. every key of each worker's Env type is in its production config (the rule: envProblems).
// Needs build/server (npm run build) for the app's bundle. Exits 1 with every problem listed.
import { spawn } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { pathToFileURL } from 'node:url'
import { gzipSync } from 'node:zlib'
import { DEVELOPMENT_ONLY_WORKERS, WORKER_GZIP_LIMIT_BYTES, envProblems, environmentView, kindOfType, planDeploy, readConfigs, sizeProblems } from './lib/deploy-plan.mjs'

/** Where each config's Env type lives: the app's, else `<worker>/src/env.ts`. */
const ENV_FILES = { 'wrangler.toml': 'app/utils/env.server.ts' }
const envFileOf = (configPath) => ENV_FILES[configPath] ?? configPath.replace(/wrangler\.toml$/, 'src/env.ts')

/** Just enough of TypeScript's lib for the Env types (Pick, Omit…): parsing only them keeps this well under a second. */
const LIB_NAME = '/__check-bundles-lib.d.ts'
const LIB_TEXT = `interface Array<T> {} interface Boolean {} interface Function {} interface CallableFunction {} interface NewableFunction {}
interface IArguments {} interface Number {} interface Object {} interface RegExp {} interface String {}
type Pick<T, K extends keyof T> = { [P in K]: T[P] }; type Exclude<T, U> = T extends U ? never : T; type Extract<T, U> = T extends U ? T : never
type Omit<T, K extends keyof any> = Pick<T, Exclude<keyof T, K>>; type Partial<T> = { [P in keyof T]?: T[P] }
type Required<T> = { [P in keyof T]-?: T[P] }; type Record<K extends keyof any, T> = { [P in K]: T }`

/**
 * The keys of the one exported type or interface named `*Env` in each file: name, optional (`?`),
 * and the binding kind its declared type names. Only env files are parsed (these and the
 * `#app/…/env.server.ts`-style files they import); any other import stays unknown, which is
 * enough: only the keys and their declared type names are read.
 */
/**
 * @param {string} root
 * @param {string[]} files
 */
export async function envKeys(root, files) {
  const { default: ts } = await import('typescript')
  const options = { noLib: true, noEmit: true, types: [], strict: true, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true }
  const host = ts.createCompilerHost(options)
  const read = host.getSourceFile
  host.getSourceFile = (name, language, ...rest) => (name === LIB_NAME ? ts.createSourceFile(LIB_NAME, LIB_TEXT, language) : read(name, language, ...rest))
  host.resolveModuleNames = (names) =>
    names.map((name) => {
      // Only other env files: an Env type may Pick from another (the mail worker's from the app's).
      const m = /^#(app|workers)\/(.*\benv(?:\.server)?\.ts)$/.exec(name)
      return m ? { resolvedFileName: join(root, m[1], m[2]), extension: ts.Extension.Ts, isExternalLibraryImport: false } : undefined
    })
  const absolute = files.map((f) => join(root, f))
  const program = ts.createProgram([LIB_NAME, ...absolute], options, host)
  const checker = program.getTypeChecker()
  /** @type {Record<string, { typeName: string, keys: { name: string, optional: boolean, kind: string }[] }>} */
  const out = {}
  for (const [i, file] of absolute.entries()) {
    const source = program.getSourceFile(file)
    if (!source) throw new Error(`${files[i]} is missing`)
    const exported = (st) => st.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
    const types = source.statements.filter((st) => (ts.isTypeAliasDeclaration(st) || ts.isInterfaceDeclaration(st)) && exported(st) && st.name.text.endsWith('Env'))
    if (types.length !== 1) throw new Error(`${files[i]}: expected one exported type named *Env, found ${types.length}`)
    const type = checker.getTypeAtLocation(types[0].name)
    out[files[i]] = {
      typeName: types[0].name.text,
      keys: checker.getPropertiesOfType(type).map((p) => {
        // A Pick<…> property has no valueDeclaration of its own: its declarations are the original's.
        const declaration = p.valueDeclaration ?? p.declarations?.[0]
        return { name: p.name, optional: Boolean(p.flags & ts.SymbolFlags.Optional), kind: kindOfType(declaration?.type?.getText() ?? '') }
      }),
    }
  }
  return out
}

/** Raw and gzip bytes of what wrangler would upload from an --outdir (source maps and its README are not uploaded). */
export function bundleSize(outdir) {
  let raw = 0
  let gzip = 0
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name)
      if (entry.isDirectory()) walk(path)
      else if (!entry.name.endsWith('.map') && entry.name !== 'README.md') {
        const bytes = readFileSync(path)
        raw += bytes.length
        gzip += gzipSync(bytes).length
      }
    }
  }
  walk(outdir)
  return { raw, gzip }
}

function dryRunBundle(root, configPath, outdir) {
  return new Promise((done) => {
    const child = spawn(join(root, 'node_modules', '.bin', 'wrangler'), ['deploy', '--dry-run', '--env', 'production', '--outdir', outdir, '-c', configPath], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CLOUDFLARE_CF_FETCH_ENABLED: 'false', FORCE_COLOR: '0' },
    })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    child.on('error', (e) => done({ code: 127, output: e.message }))
    child.on('exit', (code) => done({ code: code ?? 1, output }))
  })
}

/** Run `jobs` with at most `width` at once (two cores, shared). */
async function pooled(jobs, width) {
  const results = new Array(jobs.length)
  let next = 0
  await Promise.all(
    Array.from({ length: Math.min(width, jobs.length) }, async () => {
      while (next < jobs.length) {
        const i = next++
        results[i] = await jobs[i]()
      }
    }),
  )
  return results
}

const mib = (bytes) => `${(bytes / 1024 / 1024).toFixed(2)} MiB`

async function main() {
  const started = Date.now()
  const root = join(import.meta.dirname, '..')
  const configs = await readConfigs(root)
  const production = configs.map((c) => environmentView(c))
  const development = configs.map((c) => environmentView(c, null))
  const problems = [...planDeploy({ views: production, root }).problems]
  const deployed = configs.filter((c, i) => production[i].hasEnvironment && !DEVELOPMENT_ONLY_WORKERS.includes(production[i].name))

  // 3 first: it takes a fraction of a second and needs no bundle.
  const envTypes = await envKeys(
    root,
    deployed.map((c) => envFileOf(c.configPath)),
  )
  for (const c of deployed) {
    const i = configs.indexOf(c)
    const { typeName, keys } = envTypes[envFileOf(c.configPath)]
    problems.push(...envProblems({ typeName, keys, production: production[i], development: development[i] }))
  }

  const work = mkdtempSync(join(tmpdir(), 'check-bundles-'))
  try {
    const results = await pooled(
      deployed.map((c) => async () => {
        const outdir = join(work, c.configPath.replace(/\//g, '_'))
        const t0 = Date.now()
        const { code, output } = await dryRunBundle(root, c.configPath, outdir)
        return { c, code, output, outdir, seconds: (Date.now() - t0) / 1000 }
      }),
      2,
    )
    const sizes = []
    for (const r of results) {
      const name = production[configs.indexOf(r.c)].name
      if (r.code !== 0) {
        problems.push(`${r.c.configPath}: wrangler deploy --dry-run --env production failed (${r.code}):\n${r.output.trim()}`)
        continue
      }
      const size = bundleSize(r.outdir)
      sizes.push({ worker: name, gzipBytes: size.gzip })
      console.log(`  ${name.padEnd(24)} ${mib(size.raw).padStart(10)} raw ${mib(size.gzip).padStart(10)} gzip  ${r.seconds.toFixed(1)}s  ${relative(root, r.c.dir) || '.'}`)
    }
    problems.push(...sizeProblems(sizes))
  } finally {
    rmSync(work, { recursive: true, force: true })
  }

  const seconds = ((Date.now() - started) / 1000).toFixed(1)
  if (problems.length > 0) {
    console.error(`✖ production bundles and configs: ${problems.length} problem(s) (${seconds}s)\n${problems.map((p) => `  - ${p}`).join('\n')}`)
    process.exit(1)
  }
  console.log(`✔ ${deployed.length} production bundles under ${mib(WORKER_GZIP_LIMIT_BYTES)} gzip; every Env key is in its production config (${seconds}s)`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
