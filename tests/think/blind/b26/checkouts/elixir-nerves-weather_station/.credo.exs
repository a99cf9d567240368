%{
  configs: [
    %{
      name: "default",
      files: %{included: ["lib/", "test/"], excluded: [~r"/_build/", ~r"/deps/"]},
      strict: true,
      checks: %{disabled: [{Credo.Check.Readability.ModuleDoc, []}]}
    }
  ]
}
