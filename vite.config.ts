import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { createHash } from 'node:crypto'
import { defineConfig, type Plugin } from 'vite'
import { messages } from './app/i18n/messages/index.ts'

/**
 * Each language's catalogue as a static asset `assets/i18n-{locale}-{hash}.json` (client build),
 * and `virtual:i18n-catalogues` = their URLs (both builds compute the same names). The browser
 * loads only the page's language, and no catalogue weighs on the JavaScript (ADR 016).
 */
function i18nCatalogues(): Plugin {
  const files = Object.entries(messages).map(([locale, catalogue]) => {
    const source = JSON.stringify(catalogue)
    const hash = createHash('sha256').update(source).digest('hex').slice(0, 12)
    return { locale, fileName: `assets/i18n-${locale}-${hash}.json`, source }
  })
  const id = '\0virtual:i18n-catalogues'
  let ssr = false
  return {
    name: 'coursefront-i18n-catalogues',
    configResolved(config) {
      ssr = Boolean(config.build.ssr)
    },
    resolveId: (source) => (source === 'virtual:i18n-catalogues' ? id : null),
    load: (loaded) => (loaded === id ? `export default ${JSON.stringify(Object.fromEntries(files.map((f) => [f.locale, `/${f.fileName}`])))}` : null),
    generateBundle() {
      if (!ssr) for (const f of files) this.emitFile({ type: 'asset', fileName: f.fileName, source: f.source })
    },
  }
}

declare module '@remix-run/cloudflare' {
  interface Future {
    v3_singleFetch: true
  }
}

// Production build only: the app always runs in workerd (wrangler dev locally), never in Node.
export default defineConfig({
  plugins: [
    i18nCatalogues(),
    tailwindcss(),
    remix({
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
  ssr: {
    target: 'webworker',
    // One self-contained ESM bundle, so wrangler and the workerd test pool load the same file.
    noExternal: true,
    resolve: {
      conditions: ['workerd', 'worker', 'browser'],
      externalConditions: ['workerd', 'worker'],
    },
  },
  resolve: { mainFields: ['browser', 'module', 'main'] },
  build: {
    minify: true,
    rollupOptions: { external: [/^node:/, /^cloudflare:/] },
  },
})
