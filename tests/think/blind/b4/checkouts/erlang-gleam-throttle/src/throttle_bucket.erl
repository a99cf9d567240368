-module(throttle_bucket).

-export([new/2, take/2, tokens/1]).

-record(bucket, {capacity :: pos_integer(),
                 rate :: number(),          %% tokens per second
                 tokens :: number(),
                 updated :: integer()}).    %% monotonic ms

-opaque bucket() :: #bucket{}.
-export_type([bucket/0]).

new(Capacity, Rate) ->
    #bucket{capacity = Capacity, rate = Rate, tokens = Capacity,
            updated = erlang:monotonic_time(millisecond)}.

take(N, #bucket{tokens = T} = B) when T >= N ->
    {ok, B#bucket{tokens = T - N}};
take(_N, B) ->
    {error, empty, B}.

tokens(#bucket{tokens = T}) -> T.
