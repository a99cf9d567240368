import { describe, it, expect } from 'vitest'
import { registerEndpoint } from '@nuxt/test-utils/runtime'
import { flushPromises } from '@vue/test-utils'

registerEndpoint('/api/search', () => [{ id: 1, name: 'Kettle' }])

describe('useProductSearch', () => {
  it('ignores queries shorter than two characters', async () => {
    const { query, results } = useProductSearch()
    query.value = 'k'
    await flushPromises()
    expect(results.value).toEqual([])
  })

  it('fetches results for a query', async () => {
    const { query, results } = useProductSearch()
    query.value = 'kettle'
    await flushPromises()
    expect(results.value).toHaveLength(1)
  })
})
