// A withdrawal's bank account as both the school's balance page and the operator's payouts list show it.
export function WithdrawalAccount({ account, holder }: { account: string; holder: string | null }) {
  return (
    <>
      <span className="font-mono text-xs">{account}</span>
      {holder ? <div className="text-xs text-slate-500">{holder}</div> : null}
    </>
  )
}
