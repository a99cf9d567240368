:- module(geo, [lookup/3]).

lookup(Name, Lat, Lon) :- place(Name, Lat, Lon).

place(oslo, 59.9139, 10.7522).
place(bergen, 60.3913, 5.3221).
place(tromso, 69.6492, 18.9553).
