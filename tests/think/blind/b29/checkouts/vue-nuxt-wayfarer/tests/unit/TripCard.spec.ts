import { describe, it, expect } from 'vitest'
import { mountSuspended } from '@nuxt/test-utils/runtime'
import TripCard from '~/components/TripCard.vue'

describe('TripCard', () => {
  it('shows the destination', async () => {
    const wrapper = await mountSuspended(TripCard, { props: { trip: { id: 1, destination: 'Lisbon', nights: 3 } } })
    expect(wrapper.text()).toContain('Lisbon')
  })
})
