classdef TestResampleTrack < matlab.unittest.TestCase
    methods (Test)
        function keepsEndpoints(tc)
            [la, lo] = resampleTrack([0; 1], [0; 0], 50000);
            tc.verifyEqual([la([1 end]) lo([1 end])], [0 0; 1 0], AbsTol=1e-9);
        end
    end
end
