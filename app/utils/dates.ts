import dayjs from 'dayjs'
import 'dayjs/locale/pl'
import relativeTime from 'dayjs/plugin/relativeTime'
import type { Locale } from '#app/i18n/i18n.ts'

dayjs.extend(relativeTime)

export function formatDate(value: number, locale: Locale) {
  return dayjs(value).locale(locale).format(locale === 'pl' ? 'D MMMM YYYY' : 'MMMM D, YYYY')
}

/** Seed 000 §9: relative time ('from now') and 'YYYY-MM-DD HH:mm:ss'. */
export function formatDateTime(value: number) {
  return dayjs(value).format('YYYY-MM-DD HH:mm:ss')
}

export function fromNow(value: number, locale: Locale, now = Date.now()) {
  return dayjs(value).locale(locale).from(now)
}
