{ pkgs, ... }:
{
  home.username = "dev";
  home.homeDirectory = "/home/dev";
  home.stateVersion = "24.11";
  home.packages = with pkgs; [ ripgrep fd jq ];
  programs.zsh.enable = true;
}
