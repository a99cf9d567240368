use snforge_std::{declare, ContractClassTrait, DeclareResultTrait};
use pixel_nft::pixel::{IPixelDispatcher, IPixelDispatcherTrait};

#[test]
fn test_mint_sets_color() {
    let class = declare("Pixel").unwrap().contract_class();
    let (addr, _) = class.deploy(@array![]).unwrap();
    let p = IPixelDispatcher { contract_address: addr };
    p.mint(3, 4, 0xff0000);
    assert(p.color_of(3, 4) == 0xff0000, 'wrong color');
}
