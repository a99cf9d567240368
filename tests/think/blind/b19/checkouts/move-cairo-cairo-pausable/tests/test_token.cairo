use snforge_std::{declare, ContractClassTrait, DeclareResultTrait, start_cheat_caller_address};
use gov_token::interfaces::{IGovTokenDispatcher, IGovTokenDispatcherTrait};
use starknet::ContractAddress;

fn OWNER() -> ContractAddress { 'owner'.try_into().unwrap() }

fn deploy() -> IGovTokenDispatcher {
    let class = declare("GovToken").unwrap().contract_class();
    let (addr, _) = class.deploy(@array![OWNER().into()]).unwrap();
    IGovTokenDispatcher { contract_address: addr }
}

#[test]
fn test_mint_by_owner() {
    let t = deploy();
    start_cheat_caller_address(t.contract_address, OWNER());
    t.mint(OWNER(), 1000);
    assert_eq!(t.balance_of(OWNER()), 1000);
}
