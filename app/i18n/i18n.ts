// Server-side i18n: the bundled catalogues (no filesystem in workerd) over the shared core in
// translate.ts. Client components translate through useT() with the catalogue the root loader sent.
import { messages, type MessageKey } from './messages/index.ts'

import { DEFAULT_LOCALE, isLocale, LOCALES, translateIn, type Catalogue, type Locale, type TranslateValues } from './translate.ts'

export { DEFAULT_LOCALE, isLocale, LOCALES, type Locale, type TranslateValues }
export type Translate = (key: MessageKey | (string & {}), values?: TranslateValues) => string

/** Server side: every catalogue is bundled; English fills a key Polish lacks. */
export function translate(locale: Locale, key: string, values?: TranslateValues): string {
  return translateIn(messages[locale] as Catalogue, messages.en as Catalogue, locale, key, values)
}

export function getTranslator(locale: Locale): Translate {
  return (key, values) => translate(locale, key, values)
}

/** What the root loader hands the browser: the page's language only. */
export function clientCatalogue(locale: Locale): Catalogue {
  return messages[locale] as Catalogue
}

/** Best supported language from an Accept-Language header. */
export function negotiateLocale(acceptLanguage: string | null | undefined): Locale {
  if (!acceptLanguage) return DEFAULT_LOCALE
  const ranked = acceptLanguage
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';')
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='))
      return { lang: tag.toLowerCase().split('-')[0], q: q ? Number(q.slice(2)) || 0 : 1 }
    })
    .filter((entry) => entry.q > 0)
    .sort((a, b) => b.q - a.q)
  return ranked.find((entry) => isLocale(entry.lang))?.lang as Locale | undefined ?? DEFAULT_LOCALE
}

export type { MessageKey }
