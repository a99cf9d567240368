import * as anchor from "@coral-xyz/anchor";
import { Program } from "@coral-xyz/anchor";
import { PublicKey, LAMPORTS_PER_SOL } from "@solana/web3.js";
import { expect } from "chai";
import { PiggyBank } from "../target/types/piggy_bank";

describe("piggy-bank", () => {
  const provider = anchor.AnchorProvider.env();
  anchor.setProvider(provider);
  const program = anchor.workspace.PiggyBank as Program<PiggyBank>;
  const [bank] = PublicKey.findProgramAddressSync(
    [Buffer.from("bank"), provider.wallet.publicKey.toBuffer()],
    program.programId
  );

  it("initializes", async () => {
    await program.methods.initialize().rpc();
    const acct = await program.account.bank.fetch(bank);
    expect(acct.owner.toBase58()).to.equal(provider.wallet.publicKey.toBase58());
  });

  it("accepts deposits", async () => {
    const before = await provider.connection.getBalance(bank);
    await program.methods.deposit(new anchor.BN(LAMPORTS_PER_SOL / 2)).rpc();
    const after = await provider.connection.getBalance(bank);
    expect(after - before).to.equal(LAMPORTS_PER_SOL / 2);
  });
});
