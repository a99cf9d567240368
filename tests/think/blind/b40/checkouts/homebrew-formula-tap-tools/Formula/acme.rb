class Acme < Formula
  desc "Fast structured log shipper"
  homepage "https://github.com/acme-org/acme"
  url "https://github.com/acme-org/acme/archive/refs/tags/v1.4.2.tar.gz"
  sha256 "3f1c9d0e6b7a4c2f8e15d9a0b3c6e7f1a2d4b8c0e9f3a5d7b1c2e4f6a8b0d2c4"
  license "Apache-2.0"
  head "https://github.com/acme-org/acme.git", branch: "main"

  livecheck do
    url :stable
    strategy :github_latest
  end

  depends_on "cmake" => :build
  depends_on "pkgconf" => :build
  depends_on "openssl@3"

  uses_from_macos "zlib"

  def install
    system "cmake", "-S", ".", "-B", "build", *std_cmake_args
    system "cmake", "--build", "build"
    system "cmake", "--install", "build"
    man1.install "doc/acme.1"
  end

  test do
    assert_match "acme #{version}", shell_output("#{bin}/acme --version")
    (testpath/"in.log").write "level=info msg=hello\n"
    output = shell_output("#{bin}/acme parse --format json #{testpath}/in.log")
    assert_match "\"msg\":\"hello\"", output
  end
end
