use anchor_lang::prelude::*;
use crate::state::{Proposal, ProposalStatus};

#[derive(Accounts)]
pub struct Finalize<'info> {
    pub authority: Signer<'info>,
    #[account(mut, has_one = authority)]
    pub proposal: Account<'info, Proposal>,
}

pub fn handler(ctx: Context<Finalize>) -> Result<()> {
    let p = &mut ctx.accounts.proposal;
    let turnout_bps = (p.yes + p.no) * 10_000 / p.eligible;
    p.status = if turnout_bps > p.quorum_bps as u64 && p.yes > p.no {
        ProposalStatus::Passed
    } else {
        ProposalStatus::Rejected
    };
    Ok(())
}
