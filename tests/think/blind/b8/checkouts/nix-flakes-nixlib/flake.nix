{
  description = "strutil: small string helpers for Nix";
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-unstable";
  inputs.nix-unit.url = "github:nix-community/nix-unit";
  inputs.nix-unit.inputs.nixpkgs.follows = "nixpkgs";

  outputs = { self, nixpkgs, nix-unit }:
    let
      system = "x86_64-linux";
      pkgs = nixpkgs.legacyPackages.${system};
    in {
      lib = import ./lib { inherit (nixpkgs) lib; };
      tests = import ./tests { inherit (self) lib; };
      checks.${system}.unit = pkgs.runCommand "strutil-tests" { nativeBuildInputs = [ nix-unit.packages.${system}.default ]; } ''
        export HOME="$(realpath .)"
        nix-unit --eval-store "$HOME" --extra-experimental-features flakes \
          --override-input nixpkgs ${nixpkgs} --flake ${self}#tests
        touch $out
      '';
      formatter.${system} = pkgs.nixfmt-rfc-style;
    };
}
