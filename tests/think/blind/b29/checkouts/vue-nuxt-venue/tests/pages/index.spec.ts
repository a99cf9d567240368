import { describe, it, expect } from 'vitest'
import { mountSuspended, registerEndpoint } from '@nuxt/test-utils/runtime'
import IndexPage from '~/pages/index.vue'

registerEndpoint('/api/venues', () => [
  { id: 1, name: 'The Crypt', city: 'Leeds' },
  { id: 2, name: 'Hall 9', city: 'York' },
])

describe('index page', () => {
  it('lists venues', async () => {
    const page = await mountSuspended(IndexPage)
    expect(page.findAll('.venue-card')).toHaveLength(2)
  })
})
