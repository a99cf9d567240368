// SPDX-License-Identifier: MIT
pragma solidity 0.8.25;

import {Test} from "forge-std/Test.sol";
import {LinearVesting} from "../src/LinearVesting.sol";
import {ERC20Mock} from "@openzeppelin/contracts/mocks/token/ERC20Mock.sol";

contract LinearVestingTest is Test {
    LinearVesting vesting;
    ERC20Mock token;
    address bene = makeAddr("beneficiary");

    function setUp() public {
        token = new ERC20Mock();
        vesting = new LinearVesting(token, bene, uint64(block.timestamp), 90 days, 365 days, 1_000e18);
        token.mint(address(vesting), 1_000e18);
    }

    function testNothingBeforeCliff() public {
        skip(89 days);
        assertEq(vesting.vested(uint64(block.timestamp)), 0);
    }

    function testHalfwayVested() public {
        skip(182.5 days);
        vesting.release();
        assertApproxEqAbs(token.balanceOf(bene), 500e18, 1e18);
    }
}
