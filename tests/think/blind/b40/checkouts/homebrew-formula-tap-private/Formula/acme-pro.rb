require_relative "../lib/github_private_release_download_strategy"

class AcmePro < Formula
  desc "Acme log shipper, enterprise edition"
  homepage "https://github.com/acme-org/acme-pro"
  url "https://github.com/acme-org/acme-pro/releases/download/v3.0.4/acme-pro-3.0.4-linux-amd64.tar.gz",
      using: GitHubPrivateReleaseDownloadStrategy
  sha256 "6f0a3d9c2e7b1f5a8d4c0e3b7f1a9d2c5e8b0f4a7d3c1e6b9f2a5d8c0e4b7f13"
  license :cannot_represent

  def install
    bin.install "acme-pro"
    generate_completions_from_executable(bin/"acme-pro", "completion")
  end

  test do
    assert_match "acme-pro 3.0.4", shell_output("#{bin}/acme-pro --version")
    assert_match "license: missing", shell_output("#{bin}/acme-pro license status", 2)
  end
end
