-- What an import batch did to accounts besides adding rows, so that undo takes it back too: the
-- accounts it created, and each balance it set with the figures before and after (JSON).
ALTER TABLE import_batches ADD COLUMN account_changes TEXT;
