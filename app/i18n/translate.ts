// Translation without a catalogue of its own: the client gets the page's language from the root
// loader (one language, not both: less JavaScript on every page), the server passes the bundled
// catalogues (i18n.ts). Plural forms follow CLDR via Intl.PluralRules (Polish: one/few/many/other).
import { core } from './messages/core.ts'

export const LOCALES = ['en', 'pl'] as const
export type Locale = (typeof LOCALES)[number]
export const DEFAULT_LOCALE: Locale = 'en'

export type Catalogue = Record<string, string>
export type TranslateValues = Record<string, string | number>
export type Translate = (key: string, values?: TranslateValues) => string

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value)
}

const pluralRules = new Map<Locale, Intl.PluralRules>()
function pluralCategory(locale: Locale, count: number) {
  let rules = pluralRules.get(locale)
  if (!rules) pluralRules.set(locale, (rules = new Intl.PluralRules(locale)))
  return rules.select(count)
}

const fractionFormats = new Map<Locale, Intl.NumberFormat>()

/** Fractions in the page's language (0.6 MB → "0,6" in Polish); whole numbers as they are. */
function formatValue(locale: Locale, value: string | number) {
  if (typeof value !== 'number' || Number.isInteger(value)) return String(value)
  // One formatter per locale: building one costs far more than using it.
  let format = fractionFormats.get(locale)
  if (!format) fractionFormats.set(locale, (format = new Intl.NumberFormat(locale, { maximumFractionDigits: 2 })))
  return format.format(value)
}

/** `key` in `catalogue` (then `fallback`, then the key itself), plural form by `values.count`. */
export function translateIn(catalogue: Catalogue, fallback: Catalogue | undefined, locale: Locale, key: string, values?: TranslateValues): string {
  let template: string | undefined
  if (values && typeof values.count === 'number') {
    const form = `${key}_${pluralCategory(locale, values.count)}`
    template = catalogue[form] ?? catalogue[`${key}_other`] ?? fallback?.[form] ?? fallback?.[`${key}_other`]
  }
  template ??= catalogue[key] ?? fallback?.[key] ?? key
  if (!values) return template
  return template.replace(/\{(\w+)\}/g, (match, name: string) => (name in values ? formatValue(locale, values[name]) : match))
}

/** The frame's strings (skip link, footer, error pages) in both languages, for when no catalogue arrived. */
export function coreCatalogue(locale: Locale): Catalogue {
  return core[locale] as Catalogue
}

/** A translator over `catalogue`, with the frame's strings (core) as the fallback. */
export function makeTranslator(locale: Locale, catalogue: Catalogue | undefined): Translate {
  const fallback = coreCatalogue(locale)
  return (key, values) => translateIn(catalogue ?? fallback, fallback, locale, key, values)
}
