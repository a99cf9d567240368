function ok = run_all_tests()
  ok = true;
  ok = test("fastconv_mex_regress") && ok;
  ok = test("test_fastconv_matches_conv") && ok;
endfunction
