import { defineMessages } from './define.ts'

export const articles = defineMessages({}, {})
