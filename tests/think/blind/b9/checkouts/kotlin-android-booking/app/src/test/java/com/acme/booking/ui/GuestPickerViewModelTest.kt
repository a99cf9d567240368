package com.acme.booking.ui

import app.cash.turbine.test
import kotlinx.coroutines.test.runTest
import org.junit.Assert.assertEquals
import org.junit.Test

class GuestPickerViewModelTest {
    @Test
    fun incrementAdults_capsAtMax() = runTest {
        val vm = GuestPickerViewModel(maxGuests = 2)
        vm.state.test {
            skipItems(1)
            vm.incrementAdults(); vm.incrementAdults(); vm.incrementAdults()
            assertEquals(2, expectMostRecentItem().adults)
        }
    }
}
