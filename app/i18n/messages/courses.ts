import { defineMessages } from './define.ts'

export const courses = defineMessages({}, {})
