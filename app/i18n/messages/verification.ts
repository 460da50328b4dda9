import { defineMessages } from './define.ts'

// Login verification by email or SMS code (seed 000 §2, §4, §8; issue 7)
export const verification = defineMessages(
  {
    'verification.placeholder': '-',
  },
  {
    'verification.placeholder': '-',
  },
)
