import { expect } from "chai";
import { ethers } from "hardhat";
import { loadFixture } from "@nomicfoundation/hardhat-toolbox/network-helpers";

describe("Escrow", function () {
  async function fixture() {
    const [arbiter, buyer, seller] = await ethers.getSigners();
    const escrow = await ethers.deployContract("Escrow", [arbiter.address]);
    return { escrow, arbiter, buyer, seller };
  }

  it("only the seller can mark delivered", async function () {
    const { escrow, buyer, seller } = await loadFixture(fixture);
    await escrow.connect(buyer).open(seller.address, { value: ethers.parseEther("1") });
    await expect(escrow.connect(buyer).markDelivered(0)).to.be.revertedWith("Escrow: not seller");
  });

  it("buyer releases funds after delivery", async function () {
    const { escrow, buyer, seller } = await loadFixture(fixture);
    await escrow.connect(buyer).open(seller.address, { value: ethers.parseEther("1") });
    await escrow.connect(seller).markDelivered(0);
    await expect(escrow.connect(buyer).release(0)).to.changeEtherBalance(seller, ethers.parseEther("1"));
  });
});
