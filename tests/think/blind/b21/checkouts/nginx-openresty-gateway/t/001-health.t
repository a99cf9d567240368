use Test::Nginx::Socket::Lua 'no_plan';

our $HttpConfig = <<'_EOC_';
    lua_package_path "$pwd/lib/?.lua;;";
    lua_shared_dict ratelimit 1m;
_EOC_

run_tests();

__DATA__

=== TEST 1: health endpoint answers 200
--- http_config eval: $::HttpConfig
--- config
    location = /healthz {
        content_by_lua_block { ngx.say("ok") }
    }
--- request
GET /healthz
--- response_body
ok
--- no_error_log
[error]
