module Splines

using LinearAlgebra

export CubicSpline, evaluate, derivative

include("types.jl")
include("fit.jl")
include("evaluate.jl")

end
