import Mathlib.Combinatorics.SimpleGraph.DegreeSum
import LeanGraphs.Basic

namespace LeanGraphs
open SimpleGraph Finset

variable {V : Type*} [Fintype V] [DecidableEq V] (G : SimpleGraph V) [DecidableRel G.Adj]

theorem sum_degrees_even : Even (∑ v, G.degree v) := by
  rw [G.sum_degrees_eq_twice_card_edges]
  exact even_two_mul _

end LeanGraphs
