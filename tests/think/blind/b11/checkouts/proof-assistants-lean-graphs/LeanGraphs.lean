import LeanGraphs.Basic
import LeanGraphs.Degree
