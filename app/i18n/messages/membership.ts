import { defineMessages } from './define.ts'

// Memberships: the student's subscription, cancel flow with the exit survey, card update (issue 8 item 6)
export const membership = defineMessages(
  {
    'membership.title': 'Membership',
  },
  {
    'membership.title': 'Członkostwo',
  },
)
