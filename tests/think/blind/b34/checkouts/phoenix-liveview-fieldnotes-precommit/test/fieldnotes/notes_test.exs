defmodule Fieldnotes.NotesTest do
  use Fieldnotes.DataCase, async: true

  alias Fieldnotes.Notes
  import Fieldnotes.NotesFixtures

  test "list_notes/1 returns the user's notes newest first" do
    user = Fieldnotes.AccountsFixtures.user_fixture()
    older = note_fixture(user, inserted_at: ~U[2025-01-01 00:00:00Z])
    newer = note_fixture(user, inserted_at: ~U[2025-02-01 00:00:00Z])
    assert Enum.map(Notes.list_notes(user), & &1.id) == [newer.id, older.id]
  end
end
