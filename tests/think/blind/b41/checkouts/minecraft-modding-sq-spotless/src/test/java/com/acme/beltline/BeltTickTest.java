package com.acme.beltline;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.acme.beltline.block.entity.BeltBlockEntity;
import net.minecraft.Bootstrap;
import net.minecraft.SharedConstants;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class BeltTickTest {
    @BeforeAll
    static void bootstrap() {
        SharedConstants.createGameVersion();
        Bootstrap.initialize();
    }

    @Test
    void unpoweredBeltMovesOneItemEveryEightTicks() {
        FakeBeltWorld world = FakeBeltWorld.straight(3);
        world.insert(0, "minecraft:iron_ingot");
        world.tick(8);
        assertEquals(1, world.slotOf("minecraft:iron_ingot"));
    }

    @Test
    void beltDoesNothingWhenEmpty() {
        FakeBeltWorld world = FakeBeltWorld.straight(3);
        world.tick(40);
        assertEquals(0, world.movedCount());
    }
}
