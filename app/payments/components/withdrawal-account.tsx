// A withdrawal's bank account as both the school's balance page and the operator's payouts list show it.
import { useT } from '#app/utils/i18n-react.ts'
export function WithdrawalAccount({ account, holder, swift, routing }: { account: string; holder: string | null; swift?: string | null; routing?: string | null }) {
  const t = useT()
  return (
    <>
      <span className="font-mono text-xs">{account}</span>
      {/* What a transfer outside IBAN needs (issue 23): the bank's SWIFT/BIC or the US routing number. */}
      {swift ? <div className="text-xs text-slate-600">{t('account.bank.swift')} <span className="font-mono">{swift}</span></div> : null}
      {routing ? <div className="text-xs text-slate-600">{t('account.bank.routing')} <span className="font-mono">{routing}</span></div> : null}
      {holder ? <div className="text-xs text-slate-500">{holder}</div> : null}
    </>
  )
}
