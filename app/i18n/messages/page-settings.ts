import { defineMessages } from './define.ts'

export const pageSettings = defineMessages({}, {})
