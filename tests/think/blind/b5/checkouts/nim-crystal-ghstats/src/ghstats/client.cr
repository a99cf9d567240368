require "http/client"
require "json"

module Ghstats
  class Client
    API = URI.parse("https://api.github.com")

    def initialize(@token : String? = ENV["GITHUB_TOKEN"]?)
    end

    def repo(owner : String, name : String) : JSON::Any
      get("/repos/#{owner}/#{name}")
    end

    private def get(path : String) : JSON::Any
      headers = HTTP::Headers{"Accept" => "application/vnd.github+json"}
      @token.try { |t| headers["Authorization"] = "Bearer #{t}" }
      resp = HTTP::Client.get(API.resolve(path), headers)
      raise "GitHub API #{resp.status_code}: #{path}" unless resp.success?
      JSON.parse(resp.body)
    end
  end
end
