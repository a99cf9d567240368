-module(csvq_parser).

-export([parse/1, parse_line/1]).

-spec parse(binary()) -> [[binary()]].
parse(Bin) ->
    [parse_line(L) || L <- binary:split(Bin, [<<"\r\n">>, <<"\n">>], [global, trim])].

-spec parse_line(binary()) -> [binary()].
parse_line(Line) ->
    fields(Line, <<>>, [], false).

fields(<<>>, Acc, Fields, _InQuotes) ->
    lists:reverse([Acc | Fields]);
fields(<<$", $", Rest/binary>>, Acc, Fields, true) ->
    fields(Rest, <<Acc/binary, $">>, Fields, true);
fields(<<$", Rest/binary>>, Acc, Fields, InQuotes) ->
    fields(Rest, Acc, Fields, not InQuotes);
fields(<<$,, Rest/binary>>, Acc, Fields, false) ->
    fields(Rest, <<>>, [Acc | Fields], false);
fields(<<C, Rest/binary>>, Acc, Fields, InQuotes) ->
    fields(Rest, <<Acc/binary, C>>, Fields, InQuotes).
