-module(throttle_bucket_tests).
-include_lib("eunit/include/eunit.hrl").

new_bucket_is_full_test() ->
    B = throttle_bucket:new(10, 1),
    ?assertEqual(10, throttle_bucket:tokens(B)).

take_decrements_test() ->
    {ok, B} = throttle_bucket:take(3, throttle_bucket:new(10, 1)),
    ?assertEqual(7, throttle_bucket:tokens(B)).

take_more_than_available_test() ->
    B0 = throttle_bucket:new(2, 1),
    ?assertMatch({error, empty, _}, throttle_bucket:take(3, B0)).
