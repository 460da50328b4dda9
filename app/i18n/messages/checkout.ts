import { defineMessages } from './define.ts'

// Checkout and the pending-payment page (issue 8 items 1 and 5)
export const checkout = defineMessages(
  {
    'checkout.title': 'Checkout',
  },
  {
    'checkout.title': 'Zamówienie',
  },
)
