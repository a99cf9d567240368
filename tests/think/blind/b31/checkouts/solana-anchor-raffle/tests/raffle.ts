import * as anchor from "@coral-xyz/anchor";
import { Program } from "@coral-xyz/anchor";
import { Raffle } from "../target/types/raffle";
import { expect } from "chai";

describe("raffle", () => {
  const provider = anchor.AnchorProvider.env();
  anchor.setProvider(provider);
  const program = anchor.workspace.Raffle as Program<Raffle>;
  const raffle = anchor.web3.Keypair.generate();

  it("creates a raffle", async () => {
    const endsAt = Math.floor(Date.now() / 1000) + 3600;
    await program.methods
      .createRaffle(new anchor.BN(1_000_000), new anchor.BN(endsAt), 2)
      .accounts({ raffle: raffle.publicKey })
      .signers([raffle])
      .rpc();
  });

  it("sells tickets until sold out", async () => {
    await program.methods.buyTicket().accounts({ raffle: raffle.publicKey }).rpc();
    await program.methods.buyTicket().accounts({ raffle: raffle.publicKey }).rpc();
    try {
      await program.methods.buyTicket().accounts({ raffle: raffle.publicKey }).rpc();
      expect.fail("should have thrown");
    } catch (e) {
      expect(e.error.errorCode.code).to.equal("SoldOut");
    }
  });
});
