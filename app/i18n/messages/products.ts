import { defineMessages } from './define.ts'

export const products = defineMessages({}, {})
