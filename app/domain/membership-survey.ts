// The exit survey's choices for the browser (seed 000 §3 "Cancellation survey"); the same lists
// as the schema's CANCEL_REASONS / RETURN_INTENTS (a unit test keeps them equal), which client
// code cannot import from a .server module.
export const SURVEY_REASONS = ['no_time', 'no_value', 'expensive', 'alternative', 'technical', 'other'] as const
export const SURVEY_RETURN_INTENTS = ['definitely_return', 'maybe_return', 'probably_not_return', 'never_return'] as const
