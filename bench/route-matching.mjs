#!/usr/bin/env node
// Route-matching micro-benchmark (issue 21 item 2, ADR 027): the built server bundle's routes, matched
// as one document request matches them (server-runtime, static handler, useRoutes, and Remix's
// getPartialManifest on "/"), once on fresh route arrays (the unpatched path: flatten, rank and
// compile on every call, data routes rebuilt per request) and once on arrays registered with
// UNSAFE_memoizeRouteMatching (patches/, applied by `postinstall`). Prints ratios, not milliseconds.
//
//   npm run build && node bench/route-matching.mjs [--iterations 2000]
import { loadavg } from 'node:os'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as router from '@remix-run/router'

const root = resolve(import.meta.dirname, '..')
const argv = process.argv.slice(2)
const ITERATIONS = argv.includes('--iterations') ? Number(argv[argv.indexOf('--iterations') + 1]) : 2000
const { matchRoutes, UNSAFE_convertRoutesToDataRoutes: convert, UNSAFE_memoizeRouteMatching: memoize } = router
if (typeof memoize !== 'function') {
  console.error('@remix-run/router is not patched: run `npx patch-package` (ADR 027)')
  process.exit(1)
}

const build = await import(pathToFileURL(resolve(root, 'build/server/index.js')).href)
// As server-runtime's createStaticHandlerDataRoutes: the manifest as a tree by parentId (index routes without children).
function createRoutes(manifest, parentId = '') {
  return Object.values(manifest)
    .filter((r) => (r.parentId || '') === parentId)
    .map((r) => (r.index ? { id: r.id, index: true } : { id: r.id, path: r.path, caseSensitive: r.caseSensitive, children: createRoutes(manifest, r.id) }))
}
const toData = (routes) => convert(routes, (r) => ({ hasErrorBoundary: r.id === 'root' }), undefined, {})

// One document request: four matches (server-runtime, static handler, useRoutes, getPartialManifest on
// "/"). Unpatched, the first two arrays are built once per build and the rendered ones per request.
const plainServerRoutes = createRoutes(build.routes)
const plainHandlerRoutes = toData(createRoutes(build.routes))
function requestPlain(path) {
  matchRoutes(plainServerRoutes, path)
  matchRoutes(plainHandlerRoutes, path)
  const rendered = toData(createRoutes(build.routes))
  matchRoutes(rendered, path)
  return matchRoutes(rendered, '/')
}
const serverRoutes = memoize(createRoutes(build.routes))
const handlerRoutes = memoize(toData(createRoutes(build.routes)))
const renderedRoutes = memoize(toData(createRoutes(build.routes)))
function requestMemo(path) {
  matchRoutes(serverRoutes, path)
  matchRoutes(handlerRoutes, path)
  matchRoutes(renderedRoutes, path)
  return matchRoutes(renderedRoutes, '/')
}

const ids = (matches) => JSON.stringify(matches?.map((m) => [m.route.id, m.params, m.pathname]))
// Mean time of fn over ITERATIONS calls (after a warm-up); `pathAt(i)` gives the pathname of call i.
function time(fn, pathAt) {
  for (let i = 0; i < 200; i++) fn(pathAt(-1 - i))
  const start = process.hrtime.bigint()
  for (let i = 0; i < ITERATIONS; i++) fn(pathAt(i))
  return Number(process.hrtime.bigint() - start) / ITERATIONS
}
const ratio = (memo, plain) => `${(memo / plain).toFixed(4)} (×${(plain / memo).toFixed(0)})`

const slug = '/intro-to-pottery' // routes/$slug, the course page
console.log(
  `• ${Object.keys(build.routes).length} routes, ${ITERATIONS} iterations, load average ${loadavg()
    .map((n) => n.toFixed(2))
    .join(' ')}`,
)
console.log('• one document request, memo ÷ plain (plain ÷ memo); the last row: a course slug the LRU has not seen on every call')
console.log('| path | matches equal | memo ÷ plain |')
console.log('| --- | --- | --- |')
for (const path of ['/', '/login', slug]) {
  const equal = ids(matchRoutes(plainServerRoutes, path)) === ids(matchRoutes(serverRoutes, path)) && ids(matchRoutes(serverRoutes, path)) === ids(matchRoutes(serverRoutes, path))
  console.log(
    `| \`${path}\` | ${equal ? 'yes' : 'NO'} | ${ratio(
      time(requestMemo, () => path),
      time(requestPlain, () => path),
    )} |`,
  )
  if (!equal) process.exitCode = 1
}
const unseen = (i) => `${slug}-${i}`
const missEqual = ids(matchRoutes(plainServerRoutes, unseen(1e6))) === ids(matchRoutes(serverRoutes, unseen(1e6)))
console.log(`| \`${slug}-{n}\` (LRU miss) | ${missEqual ? 'yes' : 'NO'} | ${ratio(time(requestMemo, unseen), time(requestPlain, unseen))} |`)
if (!missEqual) process.exitCode = 1
