using Splines
using Test

@testset "Splines" begin
    @testset "evaluate" begin
        s = CubicSpline([0.0, 1.0, 2.0], [0.0, 1.0, 0.0])
        @test evaluate(s, 1.0) ≈ 1.0
        @test evaluate(s, 0.5) ≈ 0.6875
    end
    @testset "derivative at knots" begin
        s = CubicSpline(0.0:0.5:3.0, sin.(0.0:0.5:3.0))
        @test derivative(s, 0.5) ≈ cos(0.5) atol = 1e-2
    end
end
