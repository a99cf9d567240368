function fastconv_mex_regress ()
endfunction

%!test
%! ## kernel longer than signal used to crash (issue #3)
%! y = fastconv_mex (ones (1, 50), ones (1, 80));
%! assert (numel (y), 129)
