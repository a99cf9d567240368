{
  description = "fleetctl - inspect and drain fleet nodes";
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.11";
  inputs.flake-utils.url = "github:numtide/flake-utils";
  inputs.treefmt-nix.url = "github:numtide/treefmt-nix";

  outputs = { self, nixpkgs, flake-utils, treefmt-nix }:
    flake-utils.lib.eachDefaultSystem (system:
      let
        pkgs = nixpkgs.legacyPackages.${system};
        fmt = treefmt-nix.lib.evalModule pkgs {
          projectRootFile = "flake.nix";
          programs.gofmt.enable = true;
          programs.nixfmt.enable = true;
        };
      in {
        packages.default = pkgs.buildGoModule {
          pname = "fleetctl";
          version = "0.6.3";
          src = ./.;
          vendorHash = "sha256-2H0x6Zt3mX2kq1d1oQp0E3Ck5n8mYgVY3r8u6WcJq0s=";
          subPackages = [ "cmd/fleetctl" ];
          # go test ./... runs in checkPhase
        };
        checks.default = self.packages.${system}.default;
        formatter = fmt.config.build.wrapper;
        devShells.default = pkgs.mkShell { packages = [ pkgs.go pkgs.gopls pkgs.golangci-lint ]; };
      });
}
