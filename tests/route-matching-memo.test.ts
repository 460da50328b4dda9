// Issue 21: server-side route matching is memoised by patches/ (patch-package, run by `postinstall`;
// ADR 027). These tests fail when an install or an upgrade drops the patch: the marker must be in
// every patched file, the installed versions must be the patched ones, and a registered routes
// array must answer from its memo with the same matches as the unpatched matcher.
import { readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import * as router from '@remix-run/router'
import { createStaticRouter } from 'react-router-dom/server'
import { describe, expect, it } from 'vitest'

type Route = { id: string; path?: string; index?: boolean; caseSensitive?: boolean; children?: Route[] }
type Match = { params: Record<string, string | undefined>; pathname: string; pathnameBase: string; route: Route }

const MARKER = 'coursefront patch (route-matching memo)'
const PATCHED_FILES: Record<string, string[]> = {
  '@remix-run/router': ['dist/router.js', 'dist/router.cjs.js'],
  '@remix-run/server-runtime': ['dist/esm/server.js', 'dist/server.js'],
  '@remix-run/react': ['dist/esm/server.js', 'dist/server.js'],
  'react-router-dom': ['server.mjs', 'server.js'],
}
const require = createRequire(import.meta.url)
const memoize = (router as unknown as { UNSAFE_memoizeRouteMatching: <T>(routes: T) => T }).UNSAFE_memoizeRouteMatching

// A tree with what the matcher ranks: index, static, dynamic, optional, splat, case-sensitive, pathless layout.
function tree(): Route[] {
  return [
    {
      id: 'root',
      path: '',
      children: [
        { id: 'home', index: true },
        { id: 'login', path: 'login' },
        { id: 'course', path: ':slug' },
        { id: 'lesson', path: ':slug/lessons/:lessonId' },
        { id: 'lang', path: ':lang?/about' },
        { id: 'files', path: 'files/*' },
        { id: 'case', path: 'CaseOnly', caseSensitive: true },
        {
          id: 'layout',
          children: [
            {
              id: 'admin',
              path: 'admin',
              children: [
                { id: 'admin-index', index: true },
                { id: 'admin-course', path: 'courses/:id' },
              ],
            },
          ],
        },
        { id: 'catch-all', path: '*' },
      ],
    },
  ]
}
const PATHS = [
  '/',
  '/login',
  '/login/',
  '/my-course',
  '/my%20course',
  '/a/lessons/7',
  '/en/about',
  '/about',
  '/files/x/y.pdf',
  '/CaseOnly',
  '/caseonly',
  '/admin',
  '/admin/courses/3',
  '/x/y/z',
  '/%E0%A4%A',
]
const match = (routes: unknown, path: string, basename?: string) => router.matchRoutes(routes as never, path, basename) as unknown as Match[] | null
const shape = (matches: Match[] | null) => matches && matches.map((m) => ({ id: m.route.id, params: m.params, pathname: m.pathname, pathnameBase: m.pathnameBase }))

describe('route-matching memo patch (ADR 027)', () => {
  it('is in every patched file of the installed packages, at the versions the patches were made for', () => {
    const patches = readdirSync('patches').filter((f) => f.endsWith('.patch'))
    for (const [name, files] of Object.entries(PATCHED_FILES)) {
      const { version } = require(`${name}/package.json`) as { version: string }
      expect(patches, `${name}@${version}: regenerate the patch for this version (ADR 027)`).toContain(`${name.replace('/', '+')}+${version}.patch`)
      for (const file of files) expect(readFileSync(require.resolve(`${name}/package.json`).replace(/package\.json$/, file), 'utf8'), `${name}/${file}`).toContain(MARKER)
    }
  })

  it('matches a registered array exactly as the unpatched matcher does, from the memo, with fresh objects each time', () => {
    const registered = memoize(tree())
    for (const path of PATHS) {
      const plain = match(tree(), path)
      const first = match(registered, path)
      const second = match(registered, path)
      expect(shape(first), path).toEqual(shape(plain))
      expect(shape(second), path).toEqual(shape(first))
      if (first && second) {
        expect(second).not.toBe(first)
        expect(second[0].params).not.toBe(first[0].params)
        // As unpatched: the matches of one branch share one params object.
        expect(new Set(second.map((m) => m.params)).size).toBe(1)
        second[0].params.slug = 'mutated'
        expect(shape(match(registered, path))).toEqual(shape(first))
      }
    }
    // The memo answers (the array is never re-flattened): a route added afterwards is not seen,
    // while an unregistered array (the browser's, patched by lazy route discovery) sees it at once.
    const plain = tree()
    const login = { id: 'login-2', path: 'login' }
    registered[0].children!.unshift(login)
    plain[0].children!.unshift(login)
    expect(shape(match(registered, '/login'))?.at(-1)?.id).toBe('login')
    expect(shape(match(plain, '/login'))?.at(-1)?.id).toBe('login-2')
    expect(match(tree(), '/login')?.at(-1)?.route.id).toBe('login')
  })

  it('keeps basename handling and matchPath as they were', () => {
    const registered = memoize(tree())
    expect(shape(match(registered, '/app/login', '/app'))).toEqual(shape(match(tree(), '/app/login', '/app')))
    expect(match(registered, '/other/login', '/app')).toBeNull()
    expect(router.matchPath('/courses/:id', '/courses/5')?.params).toEqual({ id: '5' })
    expect(router.matchPath({ path: '/CaseOnly', caseSensitive: true }, '/caseonly')).toBeNull()
  })

  it('makes the static router convert one routes array once, to a registered array', () => {
    const routes = tree()
    const context = {
      basename: '/',
      location: { pathname: '/login', search: '', hash: '', state: null, key: 'default' },
      matches: [],
      loaderData: {},
      actionData: null,
      errors: null,
      statusCode: 200,
      loaderHeaders: {},
      actionHeaders: {},
      activeDeferreds: null,
    }
    const first = createStaticRouter(routes as never, context as never)
    const second = createStaticRouter(routes as never, context as never)
    expect(second.routes).toBe(first.routes)
    expect(match(first.routes, '/my-course')?.map((m) => m.route.id)).toEqual(['root', 'course'])
    // Registered: a route added afterwards is not seen.
    ;(first.routes[0].children as Route[]).unshift({ id: 'late', path: 'my-course' })
    expect(match(first.routes, '/my-course')?.map((m) => m.route.id)).toEqual(['root', 'course'])
  })
})
