{ lib }:
{
  strings = import ./strings.nix { inherit lib; };
}
