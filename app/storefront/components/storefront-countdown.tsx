// Time left until a promotion ends, ticking each second. The server renders the time left at
// render time; the client takes over after hydration (a fixed-width box: no layout shift).
import { useEffect, useState } from 'react'
import { useT } from '#app/utils/i18n-react.ts'

export function splitDuration(ms: number) {
  const total = Math.max(0, Math.floor(ms / 1000))
  return { days: Math.floor(total / 86400), hours: Math.floor((total % 86400) / 3600), minutes: Math.floor((total % 3600) / 60), seconds: total % 60 }
}

const pad = (n: number) => String(n).padStart(2, '0')

export function StorefrontCountdown({ endsAt, renderedAt }: { endsAt: number; renderedAt?: number }) {
  const t = useT()
  // Server and first client render agree on the text only when both use the same clock reading;
  // suppressHydrationWarning covers the second that may pass in between.
  const [now, setNow] = useState(() => renderedAt ?? Date.now())
  useEffect(() => {
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [])
  const left = endsAt - now
  if (left <= 0) return <p className="text-sm font-medium text-slate-600" data-promo-countdown="ended">{t('storefront.price.promo_ended')}</p>
  const { days, hours, minutes, seconds } = splitDuration(left)
  return (
    <p className="text-sm text-slate-700" data-promo-countdown>
      <span>{t('storefront.price.promo_ends')} </span>
      <time dateTime={new Date(endsAt).toISOString()} className="font-mono font-semibold tabular-nums text-rose-700" suppressHydrationWarning>
        {days > 0 ? `${t('storefront.countdown.days', { count: days })} ` : ''}
        {`${pad(hours)}:${pad(minutes)}:${pad(seconds)}`}
      </time>
    </p>
  )
}
