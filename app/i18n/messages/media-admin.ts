import { defineMessages } from './define.ts'

export const mediaAdmin = defineMessages({}, {})
