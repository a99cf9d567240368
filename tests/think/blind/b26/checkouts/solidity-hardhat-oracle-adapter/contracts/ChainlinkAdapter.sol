// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AggregatorV3Interface} from "@chainlink/contracts/src/v0.8/shared/interfaces/AggregatorV3Interface.sol";

contract ChainlinkAdapter {
    AggregatorV3Interface public immutable feed;

    constructor(AggregatorV3Interface _feed) { feed = _feed; }

    function latestPrice() external view returns (uint256) {
        (, int256 answer,,,) = feed.latestRoundData();
        require(answer > 0, "Adapter: bad answer");
        return uint256(answer);
    }
}
