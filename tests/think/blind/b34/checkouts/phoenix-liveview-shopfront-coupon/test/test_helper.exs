ExUnit.start()
Ecto.Adapters.SQL.Sandbox.mode(Shopfront.Repo, :manual)
