:- use_module(library(plunit)).
:- use_module('../prolog/units').

:- begin_tests(units).

test(c_to_k) :- convert(0, celsius, kelvin, K), K =:= 273.15.
test(f_to_c) :- convert(212, fahrenheit, celsius, C), C =:= 100.
test(identity) :- convert(5, metre, metre, X), X == 5.
test(m_to_ft, [true(abs(F-3.28084) < 1.0e-5)]) :- convert(1, metre, foot, F).

:- end_tests(units).
