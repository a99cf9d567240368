classdef TestRouteLength < matlab.unittest.TestCase
    methods (Test)
        function quarterMeridian(tc)
            L = routeLength([0; 90], [0; 0]);
            tc.verifyEqual(L, 10007557, RelTol=1e-4);
        end
        function singlePointIsZero(tc)
            tc.verifyEqual(routeLength(51.5, -0.12), 0);
        end
    end
end
