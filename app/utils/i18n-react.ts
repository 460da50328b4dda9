import { useRouteLoaderData } from '@remix-run/react'
import { useContext, useMemo } from 'react'
import { CatalogueContext } from '#app/i18n/catalogue-context.tsx'
import { DEFAULT_LOCALE, makeTranslator, type Locale } from '#app/i18n/translate.ts'
import type { FieldMessage } from './validation.ts'

type RootData = { locale: Locale }

export function useLocale(): Locale {
  const data = useRouteLoaderData('root') as RootData | undefined
  return data?.locale ?? DEFAULT_LOCALE
}

/** Translations in the page's language, from the catalogue in context (catalogue-context.tsx). */
export function useT() {
  const locale = useLocale()
  const catalogue = useContext(CatalogueContext)
  return useMemo(() => makeTranslator(locale, catalogue ?? undefined), [locale, catalogue])
}

/** Render a field error (translation key + values) in the page's language. */
export function useFieldMessage() {
  const t = useT()
  return (message: FieldMessage | undefined) => (message ? t(message.key, message.values) : undefined)
}
