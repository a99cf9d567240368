defmodule Larder.PantriesTest do
  use Larder.DataCase, async: true

  alias Larder.Pantries
  import Larder.AccountsFixtures
  import Larder.PantriesFixtures

  test "list_pantries/1 only returns the user's pantries" do
    user = user_fixture()
    other = user_fixture()
    mine = pantry_fixture(user)
    _theirs = pantry_fixture(other)
    assert [%{id: id}] = Pantries.list_pantries(user)
    assert id == mine.id
  end
end
