import { expect } from "chai";
import { ethers } from "hardhat";

describe("Marketplace", () => {
  it("deploys", async () => {
    const m = await ethers.deployContract("Marketplace");
    expect(await m.getAddress()).to.be.properAddress;
  });
});
