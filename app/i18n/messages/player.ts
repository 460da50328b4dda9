import { defineMessages } from './define.ts'

// Lecture player, course access, no-access page, notes, progress, quiz (seed 000 widget 11; issue 7)
export const player = defineMessages(
  {
    'player.placeholder': '-',
  },
  {
    'player.placeholder': '-',
  },
)
