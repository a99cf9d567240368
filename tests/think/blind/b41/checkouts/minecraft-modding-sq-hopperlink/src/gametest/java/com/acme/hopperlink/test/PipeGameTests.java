package com.acme.hopperlink.test;

import com.acme.hopperlink.block.PipeBlock;
import net.fabricmc.fabric.api.gametest.v1.FabricGameTest;
import net.minecraft.core.BlockPos;
import net.minecraft.gametest.framework.GameTest;
import net.minecraft.gametest.framework.GameTestHelper;
import net.minecraft.world.item.Items;

public class PipeGameTests implements FabricGameTest {
    @GameTest(template = "hopperlink:pipe_over_hopper")
    public void pipe_feeds_hopper(GameTestHelper helper) {
        helper.succeedWhen(() -> helper.assertContainerContains(new BlockPos(1, 1, 1), Items.COBBLESTONE));
    }

    @GameTest(template = "hopperlink:pipe_over_hopper")
    public void locked_pipe_blocks_hopper(GameTestHelper helper) {
        helper.setBlock(new BlockPos(1, 2, 1), helper.getBlockState(new BlockPos(1, 2, 1)).setValue(PipeBlock.LOCKED, true));
        helper.runAfterDelay(40, () -> {
            helper.assertContainerEmpty(new BlockPos(1, 1, 1));
            helper.succeed();
        });
    }
}
