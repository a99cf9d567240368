import { HardhatUserConfig } from "hardhat/config";
import "@nomicfoundation/hardhat-toolbox";

const config: HardhatUserConfig = {
  solidity: {
    version: "0.8.24",
    settings: { optimizer: { enabled: true, runs: 200 } },
  },
  networks: {
    hardhat: process.env.FORK
      ? { forking: { url: process.env.MAINNET_RPC_URL!, blockNumber: 21_900_000 } }
      : {},
  },
};

export default config;
