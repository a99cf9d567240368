use anchor_lang::prelude::*;

pub mod instructions;
pub mod state;
use instructions::*;

declare_id!("JBXb9XbVpzRen3MELgbPrJoz1TaNekTV1ydcLbJS4FeQ");

#[program]
pub mod dao_voting {
    use super::*;

    pub fn create_proposal(ctx: Context<CreateProposal>, title: String, quorum_bps: u16) -> Result<()> {
        instructions::create_proposal::handler(ctx, title, quorum_bps)
    }

    pub fn cast_vote(ctx: Context<CastVote>, approve: bool) -> Result<()> {
        instructions::cast_vote::handler(ctx, approve)
    }

    pub fn finalize(ctx: Context<Finalize>) -> Result<()> {
        instructions::finalize::handler(ctx)
    }
}
