import * as anchor from "@coral-xyz/anchor";
import { Program } from "@coral-xyz/anchor";
import { Escrow } from "../target/types/escrow";
import { assert } from "chai";

describe("escrow", () => {
  anchor.setProvider(anchor.AnchorProvider.env());
  const program = anchor.workspace.Escrow as Program<Escrow>;

  it("puts the tokens Alice offers into the vault when Alice makes an offer", async () => {
    // setup of mints and ATAs elided in helpers
    assert.ok(program.programId);
  });

  it("puts the tokens from the vault into Bob's account when Bob takes an offer", async () => {
    assert.ok(program.programId);
  });
});
