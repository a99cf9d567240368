{ buildGoModule }:
buildGoModule {
  pname = "relay-server";
  version = "1.9.0";
  src = ../..;
  vendorHash = "sha256-0rWb1Jm3W7e9hS9nB2o6+4qY0T1zQj3x2x2rAbN1Fq8=";
  subPackages = [ "cmd/relay-server" "internal/..." ];
  # buildGoModule runs `go test` for subPackages in checkPhase (doCheck defaults to true)
}
