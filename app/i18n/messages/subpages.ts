import { defineMessages } from './define.ts'

// The sales-page editor in the instructor panel (/home/subpages).
export const subpages = defineMessages(
  {

  },
  {

  },
)
