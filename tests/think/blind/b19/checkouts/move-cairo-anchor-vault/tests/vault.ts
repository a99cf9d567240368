import * as anchor from "@coral-xyz/anchor";
import { Program } from "@coral-xyz/anchor";
import { Vault } from "../target/types/vault";
import { expect } from "chai";

describe("vault", () => {
  const provider = anchor.AnchorProvider.env();
  anchor.setProvider(provider);
  const program = anchor.workspace.Vault as Program<Vault>;

  it("initializes", async () => {
    await program.methods.initialize(255).rpc();
  });

  it("deposits and withdraws", async () => {
    await program.methods.deposit(new anchor.BN(1_000_000)).rpc();
    await program.methods.withdraw(new anchor.BN(400_000)).rpc();
    const v = await program.account.vaultState.fetch(
      anchor.web3.PublicKey.findProgramAddressSync([Buffer.from("vault"), provider.wallet.publicKey.toBuffer()], program.programId)[0]
    );
    expect(v.balance.toNumber()).to.equal(600_000);
  });
});
