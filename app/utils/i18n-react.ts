import { useRouteLoaderData } from '@remix-run/react'
import { useMemo } from 'react'
import { DEFAULT_LOCALE, getTranslator, type Locale } from '#app/i18n/i18n.ts'
import type { FieldMessage } from './validation.ts'

type RootData = { locale: Locale }

export function useLocale(): Locale {
  const data = useRouteLoaderData('root') as RootData | undefined
  return data?.locale ?? DEFAULT_LOCALE
}

export function useT() {
  const locale = useLocale()
  return useMemo(() => getTranslator(locale), [locale])
}

/** Render a field error (translation key + values) in the page's language. */
export function useFieldMessage() {
  const t = useT()
  return (message: FieldMessage | undefined) => (message ? t(message.key, message.values) : undefined)
}
