// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Marketplace {
    struct Listing { address seller; uint256 price; }
    mapping(address => mapping(uint256 => Listing)) public listings;
}
