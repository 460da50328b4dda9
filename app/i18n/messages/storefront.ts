import { defineMessages } from './define.ts'

// The school's public pages: home, catalogue, product page, blog, subpages, SEO.
export const storefront = defineMessages(
  {

  },
  {

  },
)
