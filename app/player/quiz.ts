// Quiz lecture component (seed 000 widget 11): the answer is right only if every checkbox matches
// its correct flag. Pure, so the browser and the tests share it.

export type QuizAnswerFlags = ReadonlyArray<{ correct: boolean }>

export function isQuizRight(answers: QuizAnswerFlags, checked: ReadonlyArray<boolean>): boolean {
  if (answers.length === 0) return false
  return answers.every((a, i) => a.correct === (checked[i] === true))
}
