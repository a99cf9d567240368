// SPDX-License-Identifier: MIT
pragma solidity 0.8.24;

import {Test} from "forge-std/Test.sol";
import {ShareVault} from "../src/ShareVault.sol";
import {MockERC20} from "./mocks/MockERC20.sol";

contract ShareVaultTest is Test {
    ShareVault vault;
    MockERC20 token;
    address alice = makeAddr("alice");

    function setUp() public {
        token = new MockERC20("Mock", "MCK", 18);
        vault = new ShareVault(token);
        token.mint(alice, 100e18);
        vm.prank(alice);
        token.approve(address(vault), type(uint256).max);
    }

    function testFirstDepositMintsOneToOne() public {
        vm.prank(alice);
        uint256 shares = vault.deposit(10e18);
        assertEq(shares, 10e18);
        assertEq(vault.totalShares(), 10e18);
    }

    function testSecondDepositProRata() public {
        vm.startPrank(alice);
        vault.deposit(10e18);
        uint256 shares = vault.deposit(5e18);
        vm.stopPrank();
        assertEq(shares, 5e18);
    }
}
