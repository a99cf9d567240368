:- module(main, [main/0]).
:- use_module(library(main)).
:- use_module(geo).
:- initialization(main, main).

main(Argv) :-
    argv_options(Argv, Positional, Opts),
    run(Positional, Opts).

run([Place], _Opts) :- !,
    lookup(Place, Lat, Lon),
    format("~w: ~4f, ~4f~n", [Place, Lat, Lon]).
run(_, _) :-
    format(user_error, "usage: geoquery PLACE~n", []),
    halt(2).
