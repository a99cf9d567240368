import { expect } from "chai";
import { ethers } from "hardhat";

describe("Liquidator (mainnet fork)", () => {
  it("liquidates an underwater Aave position", async () => {
    const liq = await ethers.deployContract("Liquidator", [process.env.AAVE_POOL!]);
    await expect(liq.liquidate(process.env.TARGET!, 1n)).to.emit(liq, "Liquidated");
  });
});
