import { defineMessages } from './define.ts'

// Payment providers, their settings and notifications (issue 8 items 3 and 4)
export const payments = defineMessages(
  {
    'payments.title': 'Payments',
  },
  {
    'payments.title': 'Płatności',
  },
)
