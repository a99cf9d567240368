import { expect } from "chai";
import { ethers } from "hardhat";

describe("SavingsVault", () => {
  it("caps deposits", async () => {
    const usdc = await ethers.deployContract("MockERC20", ["USD Coin", "USDC", 6]);
    const vault = await ethers.deployContract("SavingsVault", [await usdc.getAddress(), 1_000_000n]);
    expect(await vault.maxDeposit(ethers.ZeroAddress)).to.equal(1_000_000n);
  });
});
