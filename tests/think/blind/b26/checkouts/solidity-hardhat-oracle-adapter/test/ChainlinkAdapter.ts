import { expect } from "chai";
import { ethers } from "hardhat";

describe("ChainlinkAdapter", () => {
  it("returns the feed answer", async () => {
    const feed = await ethers.deployContract("MockV3Aggregator", [8, 2000_00000000n]);
    const adapter = await ethers.deployContract("ChainlinkAdapter", [await feed.getAddress()]);
    expect(await adapter.latestPrice()).to.equal(2000_00000000n);
  });
});
