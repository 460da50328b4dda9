import { defineMessages } from './define.ts'

// Coursefront payments: Stripe Connect and PayU Marketplace onboarding (issue 18 §1)
export const marketplace = defineMessages({}, {})
