import { defineMessages } from './define.ts'

// Reviews by students and their moderation, site survey, owner notifications (issue 7)
export const engagement = defineMessages(
  {
    'engagement.placeholder': '-',
  },
  {
    'engagement.placeholder': '-',
  },
)
