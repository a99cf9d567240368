:- use_module(library(plunit)).
:- use_module(library(sparql_client)).
:- begin_tests(live).
test(wikidata_ping) :- sparql_query('ASK {}', true, []).
:- end_tests(live).
