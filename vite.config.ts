import { vitePlugin as remix } from '@remix-run/dev'
import tailwindcss from '@tailwindcss/vite'
import { defineConfig } from 'vite'

declare module '@remix-run/cloudflare' {
  interface Future {
    v3_singleFetch: true
  }
}

// Production build only: the app always runs in workerd (wrangler dev locally), never in Node.
export default defineConfig({
  plugins: [
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
