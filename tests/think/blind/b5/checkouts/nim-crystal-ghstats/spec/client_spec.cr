require "./spec_helper"

describe Ghstats::Client do
  it "builds against the public API host" do
    Ghstats::Client::API.host.should eq("api.github.com")
  end
end
