import type { AppLoadContext, EntryContext } from '@remix-run/cloudflare'
import { RemixServer } from '@remix-run/react'
import { isbot } from 'isbot'
import { renderToReadableStream } from 'react-dom/server'
import { CatalogueProvider } from './i18n/catalogue-context.tsx'
import { clientCatalogue } from './i18n/i18n.ts'
import { NonceProvider } from './utils/nonce.ts'
import { getLocale } from './utils/request.server.ts'

const ABORT_DELAY = 5_000

export default async function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
  loadContext: AppLoadContext,
) {
  const controller = new AbortController()
  const timeoutId = setTimeout(() => controller.abort(), ABORT_DELAY)
  const nonce = loadContext.nonce

  const body = await renderToReadableStream(
    <NonceProvider value={nonce}>
      {/* The same catalogue the browser fetches before hydrating (entry.client.tsx). */}
      <CatalogueProvider value={clientCatalogue(getLocale(request, loadContext))}>
        <RemixServer context={remixContext} url={request.url} abortDelay={ABORT_DELAY} nonce={nonce} />
      </CatalogueProvider>
    </NonceProvider>,
    {
      nonce,
      signal: controller.signal,
      onError(error: unknown) {
        if (!controller.signal.aborted) console.error(error)
        responseStatusCode = 500
      },
    },
  )
  body.allReady.then(() => clearTimeout(timeoutId))
  if (isbot(request.headers.get('user-agent') || '')) await body.allReady

  responseHeaders.set('Content-Type', 'text/html; charset=utf-8')
  return new Response(body, { headers: responseHeaders, status: responseStatusCode })
}
