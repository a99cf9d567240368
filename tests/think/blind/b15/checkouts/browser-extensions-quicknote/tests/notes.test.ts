import { describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing';
import { addNote, listNotes } from '../utils/notes';

describe('notes storage', () => {
  it('adds and lists notes newest first', async () => {
    fakeBrowser.reset();
    await addNote('first');
    await addNote('second');
    expect((await listNotes()).map((n) => n.text)).toEqual(['second', 'first']);
  });
});
