import { expect } from "chai";
import { ethers } from "hardhat";

describe("MultiSig", () => {
  it("executes once threshold confirmations are reached", async () => {
    const [a, b, c] = await ethers.getSigners();
    const wallet = await ethers.deployContract("MultiSig", [[a.address, b.address, c.address], 2]);
    await wallet.submit(c.address, 0, "0x");
    await wallet.connect(a).confirm(0);
    await wallet.connect(b).confirm(0);
    await expect(wallet.execute(0)).to.emit(wallet, "Executed").withArgs(0);
  });
});
