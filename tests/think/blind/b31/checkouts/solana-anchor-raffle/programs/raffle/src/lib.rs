use anchor_lang::prelude::*;

declare_id!("34WvZSC35VVcYanSkwdChrKNtJS8V87ucJvekGWzREqR");

#[program]
pub mod raffle {
    use super::*;

    pub fn create_raffle(ctx: Context<CreateRaffle>, ticket_price: u64, ends_at: i64, max_tickets: u32) -> Result<()> {
        let r = &mut ctx.accounts.raffle;
        r.authority = ctx.accounts.authority.key();
        r.ticket_price = ticket_price;
        r.ends_at = ends_at;
        r.max_tickets = max_tickets;
        r.sold = 0;
        Ok(())
    }

    pub fn buy_ticket(ctx: Context<BuyTicket>) -> Result<()> {
        let r = &mut ctx.accounts.raffle;
        require!(r.sold < r.max_tickets, RaffleError::SoldOut);
        r.sold += 1;
        Ok(())
    }
}

#[error_code]
pub enum RaffleError {
    #[msg("All tickets are sold")]
    SoldOut,
}
