// Money as text, without money.ts's zod schemas: the storefront's client bundle formats prices
// with it (~12 KB gzipped less on the course page).
import type { Locale } from '#app/i18n/translate.ts'

export function formatMoneyInput(minor: number | null | undefined, locale: Locale) {
  if (minor === null || minor === undefined) return ''
  const major = Math.floor(minor / 100)
  const cents = minor % 100
  return `${major}${locale === 'pl' ? ',' : '.'}${String(cents).padStart(2, '0')}`
}

// One formatter per (locale, currency): building an Intl.NumberFormat costs far more than using one.
// null remembers a currency Intl refuses (the plain fallback is used).
const moneyFormats = new Map<string, Intl.NumberFormat | null>()

function moneyFormat(currency: string, locale: Locale): Intl.NumberFormat | null {
  const key = `${locale}|${currency}`
  let format = moneyFormats.get(key)
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(locale === 'pl' ? 'pl-PL' : 'en-US', { style: 'currency', currency })
    } catch {
      format = null
    }
    if (moneyFormats.size >= 64) moneyFormats.clear()
    moneyFormats.set(key, format)
  }
  return format
}

/** "49,99 zł" / "$49.99". */
export function formatMoney(minor: number, currency: string, locale: Locale) {
  const format = moneyFormat(currency, locale)
  return format ? format.format(minor / 100) : `${formatMoneyInput(minor, locale)} ${currency}`
}
