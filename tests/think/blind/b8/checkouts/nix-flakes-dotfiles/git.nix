{ ... }:
{
  programs.git = {
    enable = true;
    userName = "Dev";
    userEmail = "dev@example.com";
  };
}
