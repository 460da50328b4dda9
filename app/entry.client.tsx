import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'
import { CATALOGUE_META_NAME, CatalogueProvider } from './i18n/catalogue-context.tsx'
import type { Catalogue } from './i18n/translate.ts'
import { goToLogin } from '#app/utils/go-to-login.ts'

// Seed 000 §7: any script call answered 419 (expired session or failed CSRF check) sends the
// user to /login. Patching fetch covers Remix's own data requests and our JSON calls alike.
const originalFetch = window.fetch.bind(window)
window.fetch = async (...args: Parameters<typeof fetch>) => {
  const response = await originalFetch(...args)
  if (response.status === 419) goToLogin()
  return response
}

/**
 * The page's translations (a static JSON asset named in a <meta>) before hydrating. Without them
 * the page stays as the server rendered it: links and forms work without JavaScript.
 */
async function loadCatalogue(): Promise<Catalogue | null> {
  const url = document.querySelector<HTMLMetaElement>(`meta[name="${CATALOGUE_META_NAME}"]`)?.content
  if (!url) return {}
  try {
    const response = await originalFetch(url, { credentials: 'same-origin' })
    return response.ok ? ((await response.json()) as Catalogue) : null
  } catch {
    return null
  }
}

void loadCatalogue().then((catalogue) => {
  if (!catalogue) {
    console.error('Translations could not be loaded; the page works without scripts.')
    return
  }
  startTransition(() => {
    hydrateRoot(
      document,
      <StrictMode>
        <CatalogueProvider value={catalogue}>
          <RemixBrowser />
        </CatalogueProvider>
      </StrictMode>,
    )
  })
})
