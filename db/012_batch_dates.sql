-- The days each import's file covered (its first and last row): undoing an earlier batch can then
-- say which later files listed the same days, and so may bring back rows the undo takes away.
ALTER TABLE import_batches ADD COLUMN first_date TEXT;
ALTER TABLE import_batches ADD COLUMN last_date TEXT;
