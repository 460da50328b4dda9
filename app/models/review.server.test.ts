import { describe, expect, it } from 'vitest'
import { createProduct } from '#app/models/product.server.ts'
import { createTestSchool, createTestStudent, db } from '#tests/factories.ts'
import { createReview, firstNameOf, getMyReview, getReviewableCourse, listApprovedReviews, listReviewedProducts, listReviewsForModeration, setReviewStatus } from './review.server.ts'

const T0 = 1_800_000_000_000

describe('reviews', () => {
  it('one review per student and course; moderation filters; approved ones reach the storefront list', async () => {
    const school = await createTestSchool()
    const course = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Course A', published: true })
    const other = await createProduct(db(), school.tenantId, { kind: 'course', title: 'Course B', published: true })
    const ann = await createTestStudent(school.tenantId)
    const bob = await createTestStudent(school.tenantId)
    const first = await createReview(db(), school.tenantId, { productId: course.id, userId: ann.id, firstName: 'Ann', rating: 10, body: 'Great' }, T0)
    expect(first?.status).toBe('pending')
    expect(await createReview(db(), school.tenantId, { productId: course.id, userId: ann.id, firstName: 'Ann', rating: 0, body: 'Again' })).toBeNull()
    await createReview(db(), school.tenantId, { productId: other.id, userId: bob.id, firstName: 'Bob', rating: 5, body: '' }, T0 + 1)

    const all = await listReviewsForModeration(db(), school.tenantId, {})
    expect(all.reviews.map((r) => r.firstName)).toEqual(['Bob', 'Ann'])
    expect((await listReviewsForModeration(db(), school.tenantId, { productId: course.id })).reviews.map((r) => r.firstName)).toEqual(['Ann'])
    expect((await listReviewedProducts(db(), school.tenantId)).map((p) => p.title)).toEqual(['Course A', 'Course B'])

    expect((await listApprovedReviews(db(), school.tenantId, course.id, { page: 1, length: 5 })).total).toBe(0)
    expect(await setReviewStatus(db(), school.tenantId, first!.id, 'approved')).toBe(true)
    expect((await listApprovedReviews(db(), school.tenantId, course.id, { page: 1, length: 5 })).reviews.map((r) => r.body)).toEqual(['Great'])
    expect(await getMyReview(db(), school.tenantId, course.id, ann.id)).toEqual({ rating: 10, body: 'Great', status: 'approved' })
    expect((await listReviewsForModeration(db(), school.tenantId, { status: 'pending' })).reviews.map((r) => r.firstName)).toEqual(['Bob'])
  })

  it('never crosses schools', async () => {
    const a = await createTestSchool()
    const b = await createTestSchool()
    const course = await createProduct(db(), a.tenantId, { kind: 'course', title: 'Secret', slug: 'secret', published: true })
    const student = await createTestStudent(a.tenantId)
    const review = await createReview(db(), a.tenantId, { productId: course.id, userId: student.id, firstName: 'Ann', rating: 10, body: 'x' })
    expect(await createReview(db(), b.tenantId, { productId: course.id, userId: null, firstName: 'Eve', rating: 0, body: 'y' })).toBeNull()
    expect(await setReviewStatus(db(), b.tenantId, review!.id, 'approved')).toBe(false)
    expect((await listReviewsForModeration(db(), b.tenantId, {})).total).toBe(0)
    expect(await getReviewableCourse(db(), b.tenantId, 'secret')).toBeNull()
    expect(await getReviewableCourse(db(), a.tenantId, 'secret')).toMatchObject({ id: course.id })
    expect(firstNameOf('  Sam   Lee ')).toBe('Sam')
  })
})
