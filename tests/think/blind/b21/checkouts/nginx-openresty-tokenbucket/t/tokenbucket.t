use Test::Nginx::Socket::Lua;

repeat_each(2);
plan tests => repeat_each() * (blocks() * 3);

our $HttpConfig = <<'_EOC_';
    lua_package_path "$pwd/lib/?.lua;;";
    lua_shared_dict tb 1m;
_EOC_

no_long_string();
run_tests();

__DATA__

=== TEST 1: first take succeeds
--- http_config eval: $::HttpConfig
--- config
    location /t {
        content_by_lua_block {
            local tb = require "resty.tokenbucket"
            local b = tb.new("tb", 1, 2)
            ngx.say(b:take("k"))
        }
    }
--- request
GET /t
--- response_body
true
--- no_error_log
[error]
