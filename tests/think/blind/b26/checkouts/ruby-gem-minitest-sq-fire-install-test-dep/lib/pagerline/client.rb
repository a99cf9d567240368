# frozen_string_literal: true

require "net/http"
require "json"

module Pagerline
  class Client
    BASE = URI("https://api.pagerline.io/v2/")

    def initialize(token:, http: Net::HTTP)
      @token = token
      @http = http
    end

    def get(path, params = {})
      uri = BASE + path
      uri.query = URI.encode_www_form(params) unless params.empty?
      req = Net::HTTP::Get.new(uri)
      req["Authorization"] = "Bearer #{@token}"
      res = @http.start(uri.host, uri.port, use_ssl: true) { |h| h.request(req) }
      handle(res)
    end

    private

    def handle(res)
      case res
      when Net::HTTPSuccess then JSON.parse(res.body)
      when Net::HTTPUnauthorized then raise AuthError, res.body
      else raise ApiError.new(res.code.to_i, res.body)
      end
    end
  end
end
