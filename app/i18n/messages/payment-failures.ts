import { defineMessages } from './define.ts'

// Payment failures: provider decline codes → the seeds' texts (issue 18 §3)
export const paymentFailures = defineMessages({}, {})
