import { defineMessages } from './define.ts'

// Access manager for multi-seat purchases (issue 8 item 7)
export const seats = defineMessages(
  {
    'seats.title': 'Manage access',
  },
  {
    'seats.title': 'Zarządzaj dostępem',
  },
)
