{
  inputs.nixpkgs.url = "github:NixOS/nixpkgs/nixos-24.11";
  outputs = { self, nixpkgs }:
    let pkgs = nixpkgs.legacyPackages.x86_64-linux; in {
      packages.x86_64-linux = {
        relay-server = pkgs.callPackage ./nix/packages/server.nix { };
        relay-cli = pkgs.callPackage ./nix/packages/cli.nix { };
        default = self.packages.x86_64-linux.relay-server;
      };
      checks.x86_64-linux.server = self.packages.x86_64-linux.relay-server;
    };
}
