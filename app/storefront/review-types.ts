// Shapes of reviews shared by server and client code (no server imports here).

/** The signed-in student's own review of a course, as the review form shows it. */
export type MyReview = { rating: number; body: string; status: 'pending' | 'approved' | 'disapproved' }
