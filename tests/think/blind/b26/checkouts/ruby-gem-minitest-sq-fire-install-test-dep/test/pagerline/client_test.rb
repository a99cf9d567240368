# frozen_string_literal: true

require "test_helper"

class Pagerline::ClientTest < Minitest::Test
  FakeResponse = Struct.new(:code, :body)

  def test_raises_auth_error_on_401
    client = Pagerline::Client.new(token: "t", http: fake_http(Net::HTTPUnauthorized.new("1.1", "401", "Unauthorized")))
    assert_raises(Pagerline::AuthError) { client.get("incidents") }
  end

  private

  def fake_http(response)
    Object.new.tap { |o| o.define_singleton_method(:start) { |*_, **_| response } }
  end
end
