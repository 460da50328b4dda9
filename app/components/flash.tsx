// The one-time message left by the last mutation (app/utils/flash.server.ts), read from the root
// loader. Pages place <FlashMessage /> where the confirmation belongs.
import { useRouteLoaderData } from '@remix-run/react'
import type { Flash } from '#app/utils/flash.ts'
import { useT } from '#app/utils/i18n-react.ts'
import { Alert } from './ui.tsx'

export function useFlash(): Flash | null {
  const root = useRouteLoaderData('root') as { flash?: Flash | null } | undefined
  return root?.flash ?? null
}

/**
 * The confirmation as a status alert (`data-done` names what happened). `hidden` for pages that
 * show an action's errors instead: a failed submit keeps the earlier loader data, flash included.
 */
export function FlashMessage({ hidden = false, only }: { hidden?: boolean; only?: readonly string[] }) {
  const flash = useFlash()
  const t = useT()
  if (!flash || hidden || (only && !only.includes(flash.done))) return null
  return (
    <div data-done={flash.done}>
      <Alert tone={flash.tone ?? 'success'}>{t(flash.message, flash.values)}</Alert>
    </div>
  )
}
