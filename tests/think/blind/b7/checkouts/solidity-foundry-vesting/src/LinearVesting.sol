// SPDX-License-Identifier: MIT
pragma solidity 0.8.25;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

contract LinearVesting {
    using SafeERC20 for IERC20;

    IERC20 public immutable token;
    address public immutable beneficiary;
    uint64 public immutable start;
    uint64 public immutable cliff;
    uint64 public immutable duration;
    uint256 public immutable total;
    uint256 public released;

    constructor(IERC20 _token, address _beneficiary, uint64 _start, uint64 _cliff, uint64 _duration, uint256 _total) {
        token = _token;
        beneficiary = _beneficiary;
        start = _start;
        cliff = _cliff;
        duration = _duration;
        total = _total;
    }

    function vested(uint64 t) public view returns (uint256) {
        if (t < start + cliff) return 0;
        if (t >= start + duration) return total;
        return total * (t - start) / duration;
    }

    function release() external {
        uint256 amount = vested(uint64(block.timestamp)) - released;
        released += amount;
        token.safeTransfer(beneficiary, amount);
    }
}
