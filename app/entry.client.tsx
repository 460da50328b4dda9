import { RemixBrowser } from '@remix-run/react'
import { startTransition, StrictMode } from 'react'
import { hydrateRoot } from 'react-dom/client'

// Seed 000 §7: any script call answered 419 (expired session or failed CSRF check) sends the
// user to /login. Patching fetch covers Remix's own data requests and our JSON calls alike.
const originalFetch = window.fetch.bind(window)
window.fetch = async (...args: Parameters<typeof fetch>) => {
  const response = await originalFetch(...args)
  if (response.status === 419 && window.location.pathname !== '/login') window.location.assign('/login')
  return response
}

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  )
})
