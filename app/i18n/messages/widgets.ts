import { defineMessages } from './define.ts'

// Storefront widgets: search modal, lead form, reviews list, user avatar (seed 000 §2).
export const widgets = defineMessages(
  {

  },
  {

  },
)
