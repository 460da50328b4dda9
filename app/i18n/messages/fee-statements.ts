import { defineMessages } from './define.ts'

// Monthly fee statements (issue 18 §1)
export const feeStatements = defineMessages({}, {})
