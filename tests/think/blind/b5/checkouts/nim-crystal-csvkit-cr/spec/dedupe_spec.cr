require "./spec_helper"

describe Csvkit::Dedupe do
  it "drops rows with a repeated key" do
    io = IO::Memory.new
    Csvkit::Dedupe.new(["id"]).run(IO::Memory.new("id,name\n1,a\n1,b\n2,c\n"), io)
    io.to_s.should eq("id,name\n1,a\n2,c\n")
  end
end
