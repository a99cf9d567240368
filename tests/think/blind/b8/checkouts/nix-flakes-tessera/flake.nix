{
  inputs = {
    nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";
    crane.url = "github:ipetkov/crane";
    flake-utils.url = "github:numtide/flake-utils";
  };
  outputs = { self, nixpkgs, crane, flake-utils, ... }:
    flake-utils.lib.eachDefaultSystem (system:
      let
        pkgs = nixpkgs.legacyPackages.${system};
        craneLib = crane.mkLib pkgs;
        src = craneLib.cleanCargoSource ./.;
        commonArgs = { inherit src; strictDeps = true; };
        cargoArtifacts = craneLib.buildDepsOnly commonArgs;
        tessera = craneLib.buildPackage (commonArgs // { inherit cargoArtifacts; doCheck = false; });
      in {
        packages.default = tessera;
        checks = {
          inherit tessera;
          tessera-clippy = craneLib.cargoClippy (commonArgs // { inherit cargoArtifacts; cargoClippyExtraArgs = "--all-targets -- -D warnings"; });
          tessera-fmt = craneLib.cargoFmt { inherit src; };
          tessera-nextest = craneLib.cargoNextest (commonArgs // { inherit cargoArtifacts; });
        };
        devShells.default = craneLib.devShell { checks = self.checks.${system}; };
      });
}
