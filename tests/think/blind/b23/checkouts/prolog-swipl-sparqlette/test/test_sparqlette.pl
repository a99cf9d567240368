:- use_module(library(plunit)).
:- use_module('../prolog/sparqlette').

:- begin_tests(sparqlette).

test(simple_select) :-
    select_query([s], [t(s, rdf:type, foaf:'Person')], Q),
    query_string(Q, S),
    assertion(sub_string(S, 0, _, _, "SELECT ?s WHERE")).

:- end_tests(sparqlette).
