## dummy wrapper so the %!test blocks below can be run with test()
function test_fastconv_matches_conv ()
endfunction

%!test
%! x = rand (1, 64); k = rand (1, 9);
%! assert (fastconv_mex (x, k), conv (x, k), 1e-12)
%!test
%! assert (fastconv_mex (1, 1), 1)
