import Lake
open Lake DSL

package «lean-json» where
  leanOptions := #[⟨`autoImplicit, false⟩]

lean_lib LeanJson

@[default_target]
lean_exe jsonfmt where
  root := `Main

@[test_driver]
lean_exe tests where
  root := `Tests.Main
