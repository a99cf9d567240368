:- module(units, [convert/4]).

%!  convert(+Value, +From, +To, -Result) is det.

convert(V, U, U, V) :- !.
convert(V, celsius, kelvin, R) :- R is V + 273.15.
convert(V, kelvin, celsius, R) :- R is V - 273.15.
convert(V, celsius, fahrenheit, R) :- R is V * 9 / 5 + 32.
convert(V, fahrenheit, celsius, R) :- R is (V - 32) * 5 / 9.
convert(V, metre, foot, R) :- R is V / 0.3048.
convert(V, foot, metre, R) :- R is V * 0.3048.
