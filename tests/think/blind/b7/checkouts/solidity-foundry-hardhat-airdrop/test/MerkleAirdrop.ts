import { expect } from "chai";
import { ethers } from "hardhat";
import { StandardMerkleTree } from "@openzeppelin/merkle-tree";

describe("MerkleAirdrop", function () {
  async function deploy() {
    const [owner, alice, bob] = await ethers.getSigners();
    const tree = StandardMerkleTree.of(
      [[alice.address, 100n], [bob.address, 250n]],
      ["address", "uint256"],
    );
    const token = await ethers.deployContract("TestToken");
    const drop = await ethers.deployContract("MerkleAirdrop", [token.target, tree.root]);
    await token.mint(drop.target, 1000n);
    return { owner, alice, bob, tree, token, drop };
  }

  it("lets an eligible account claim once", async function () {
    const { alice, tree, token, drop } = await deploy();
    const proof = tree.getProof(0);
    await drop.connect(alice).claim(100n, proof);
    expect(await token.balanceOf(alice.address)).to.equal(100n);
    await expect(drop.connect(alice).claim(100n, proof)).to.be.revertedWithCustomError(drop, "AlreadyClaimed");
  });
});
