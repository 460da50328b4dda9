// Small pieces of the partner pages: a read-only link with its label (select-all on focus), and
// a sale's commission state in words.
import { useT } from '#app/utils/i18n-react.ts'

export function CopyField({ id, label, value, dataAttr }: { id: string; label: string; value: string; dataAttr?: string }) {
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {label}
      </label>
      <input
        id={id}
        readOnly
        value={value}
        onFocus={(e) => e.currentTarget.select()}
        className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-900"
        {...(dataAttr ? { [dataAttr]: true } : { 'data-partner-link': true })}
      />
    </div>
  )
}

export function CommissionState({ sale }: { sale: { status: 'accrued' | 'reversed' | 'self_referral'; paid: boolean; refunded: boolean } }) {
  const t = useT()
  const key = sale.status === 'accrued' && sale.paid && sale.refunded ? 'clawback' : sale.status === 'accrued' && sale.paid ? 'paid' : sale.status
  return <span data-commission-status={key}>{t(`affiliates.commission.${key}`)}</span>
}
