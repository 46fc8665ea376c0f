-- Deleting a row makes SQLite find the rows whose `transfer_id` points at it (ON DELETE SET NULL);
-- without an index that is a scan of the table per deleted row, so undoing a 40k-row batch took
-- minutes. Few rows are transfer legs, so the index is small.
CREATE INDEX transactions_transfer ON transactions(transfer_id) WHERE transfer_id IS NOT NULL;
