import { defineMessages } from './define.ts'

// Transactions, balance and withdrawals in /home and the operator console (issue 8 item 8)
export const money = defineMessages(
  {
    'money.transactions.title': 'Transactions',
  },
  {
    'money.transactions.title': 'Transakcje',
  },
)
