import { defineMessages } from './define.ts'

// The student panel /panel: products, progress, continue where you left off (issue 7)
export const panel = defineMessages(
  {
    'student_panel.placeholder': '-',
  },
  {
    'student_panel.placeholder': '-',
  },
)
