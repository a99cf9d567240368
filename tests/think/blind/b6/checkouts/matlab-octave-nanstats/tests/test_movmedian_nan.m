function test_suite = test_movmedian_nan
    try
        test_functions = localfunctions();
    catch
    end
    initTestSuite;
end

function test_odd_window
    y = movmedian_nan([4 8 6 -1 -2 -3 -1 3 4 5], 3);
    assertEqual(y, [6 6 6 -1 -2 -2 -1 3 4 4.5]);
end

function test_nan_propagates
    y = movmedian_nan([1 NaN 3 4], 3);
    assertTrue(all(isnan(y(1:3))));
end
