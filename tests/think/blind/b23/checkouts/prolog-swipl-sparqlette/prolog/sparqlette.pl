:- module(sparqlette, [select_query/3, query_string/2]).

select_query(Vars, Where, select(Vars, Where, [])).

query_string(select(Vars, Where, Mods), S) :-
    phrase(select(Vars, Where, Mods), Cs),
    string_codes(S, Cs).
