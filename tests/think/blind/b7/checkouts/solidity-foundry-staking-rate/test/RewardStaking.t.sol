// SPDX-License-Identifier: MIT
pragma solidity 0.8.26;

import {Test} from "forge-std/Test.sol";
import {RewardStaking} from "../src/RewardStaking.sol";
import {ERC20Mock} from "./mocks/ERC20Mock.sol";

contract RewardStakingTest is Test {
    RewardStaking staking;
    ERC20Mock stakeToken;
    ERC20Mock rewardToken;
    address alice = makeAddr("alice");

    function setUp() public {
        stakeToken = new ERC20Mock();
        rewardToken = new ERC20Mock();
        staking = new RewardStaking(address(stakeToken), address(rewardToken), 1e15);
        rewardToken.mint(address(staking), 1_000_000e18);
        stakeToken.mint(alice, 1_000e18);
        vm.prank(alice);
        stakeToken.approve(address(staking), type(uint256).max);
    }

    function testStakeUpdatesBalance() public {
        vm.prank(alice);
        staking.stake(100e18);
        assertEq(staking.balanceOf(alice), 100e18);
    }

    function testEarnedAccruesOverTime() public {
        vm.prank(alice);
        staking.stake(100e18);
        skip(1000);
        assertEq(staking.earned(alice), 1e18);
    }
}
