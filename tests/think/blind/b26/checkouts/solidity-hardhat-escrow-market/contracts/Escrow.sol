// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Escrow {
    enum State { Created, Funded, Delivered, Released, Refunded }
    struct Deal { address buyer; address seller; uint256 amount; State state; uint64 deliveredAt; }
    mapping(uint256 => Deal) public deals;
    uint256 public nextId;
    address public arbiter;

    constructor(address _arbiter) { arbiter = _arbiter; }

    function open(address seller) external payable returns (uint256 id) {
        require(msg.value > 0, "Escrow: no value");
        id = nextId++;
        deals[id] = Deal(msg.sender, seller, msg.value, State.Funded, 0);
    }

    function markDelivered(uint256 id) external {
        Deal storage d = deals[id];
        require(msg.sender == d.seller, "Escrow: not seller");
        require(d.state == State.Funded, "Escrow: bad state");
        d.state = State.Delivered;
        d.deliveredAt = uint64(block.timestamp);
    }

    function release(uint256 id) external {
        Deal storage d = deals[id];
        require(msg.sender == d.buyer, "Escrow: not buyer");
        require(d.state == State.Delivered, "Escrow: bad state");
        d.state = State.Released;
        payable(d.seller).transfer(d.amount);
    }
}
