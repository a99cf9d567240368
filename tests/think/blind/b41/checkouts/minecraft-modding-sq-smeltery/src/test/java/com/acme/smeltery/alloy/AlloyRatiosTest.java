package com.acme.smeltery.alloy;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class AlloyRatiosTest {
    private static final AlloyRecipe BRONZE = new AlloyRecipe("bronze", new int[] {3, 1}, 1);
    private static final AlloyRecipe ELECTRUM = new AlloyRecipe("electrum", new int[] {1, 1}, 1);

    @Test
    void noOutputWithoutAFullBatch() {
        assertEquals(0, AlloyRatios.outputFor(BRONZE, new int[] {2, 1}));
    }

    @Test
    void electrumIsOneToOne() {
        assertEquals(2, AlloyRatios.outputFor(ELECTRUM, new int[] {1, 1}));
    }

    @Test
    void twoBatchesOfBronze() {
        assertEquals(8, AlloyRatios.outputFor(BRONZE, new int[] {6, 2}));
    }
}
