// The page's translation catalogue reaches components through context: on the server
// entry.server.tsx provides it from the bundled catalogues; in the browser entry.client.tsx fetches
// the page's language as a static JSON asset (built by vite.config.ts) before hydrating. So no
// catalogue sits in the JavaScript bundle, and none rides along in loader data.
import { createContext, type ReactNode } from 'react'
import type { Catalogue } from './translate.ts'

export const CatalogueContext = createContext<Catalogue | null>(null)

export function CatalogueProvider({ value, children }: { value: Catalogue; children: ReactNode }) {
  return <CatalogueContext.Provider value={value}>{children}</CatalogueContext.Provider>
}

/** Where the browser finds the catalogue: a <meta> the root layout renders. */
export const CATALOGUE_META_NAME = 'coursefront-catalogue'
