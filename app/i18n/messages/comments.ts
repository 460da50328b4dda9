import { defineMessages } from './define.ts'

// Comments, replies, votes, comment moderation (seed 000 widget 8, §4–§8; issue 7)
export const comments = defineMessages(
  {
    'comments.placeholder': '-',
  },
  {
    'comments.placeholder': '-',
  },
)
