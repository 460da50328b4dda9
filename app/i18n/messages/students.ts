import { defineMessages } from './define.ts'

export const students = defineMessages({}, {})
