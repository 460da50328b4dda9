// Tiny i18n core shared by server and client. Catalogues are bundled TS objects (no filesystem
// in workerd); plural forms follow CLDR via Intl.PluralRules (Polish: one/few/many/other).
import { messages, type MessageKey } from './messages/index.ts'

export const LOCALES = ['en', 'pl'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'en'

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

export type TranslateValues = Record<string, string | number>
export type Translate = (key: MessageKey | (string & {}), values?: TranslateValues) => string

const pluralRules = new Map<Locale, Intl.PluralRules>()
function pluralCategory(locale: Locale, count: number) {
  let rules = pluralRules.get(locale)
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)))
  return rules.select(count)
}

export function translate(locale: Locale, key: string, values?: TranslateValues): string {
  const catalogue = messages[locale] as Record<string, string>
  let template: string | undefined
  if (values && typeof values.count === 'number') {
    template = catalogue[`${key}_${pluralCategory(locale, values.count)}`] ?? catalogue[`${key}_other`]
  }
  template ??= catalogue[key] ?? (messages.en as Record<string, string>)[key] ?? key
  if (!values) return template
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? formatValue(locale, values[name]) : match))
}

/** Fractions in the page's language (0.6 MB → "0,6" in Polish); whole numbers as they are. */
function formatValue(locale: Locale, value: string | number) {
  return typeof value === 'number' && !Number.isInteger(value) ? new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value) : String(value)
}

export function getTranslator(locale: Locale): Translate {
  return (key, values) => translate(locale, key, values)
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
