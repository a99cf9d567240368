-module(csvq_parser_tests).
-include_lib("eunit/include/eunit.hrl").

simple_test() ->
    ?assertEqual([[<<"a">>, <<"b">>], [<<"1">>, <<"2">>]],
                 csvq_parser:parse(<<"a,b\n1,2\n">>)).

quoted_comma_test() ->
    ?assertEqual([<<"x, y">>, <<"z">>], csvq_parser:parse_line(<<"\"x, y\",z">>)).

escaped_quote_test() ->
    ?assertEqual([<<"say \"hi\"">>], csvq_parser:parse_line(<<"\"say \"\"hi\"\"\"">>)).

crlf_test() ->
    ?assertEqual([[<<"a">>], [<<"b">>]], csvq_parser:parse(<<"a\r\nb\r\n">>)).
