// Addresses and limits of the course builder, shared by its pages (browser) and routes (server).
export const TITLE_MAX = 120
export const curriculumPath = (courseId: string) => `/home/courses/${courseId}/sections`
export const lecturePath = (courseId: string, sectionId: string, lectureId: string) => `/home/courses/${courseId}/sections/${sectionId}/lectures/${lectureId}`
