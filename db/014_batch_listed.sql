-- The rows each import's file listed that the account already held (its duplicates, and rows it
-- matched moved or reworded), as fingerprints packed eight bytes each. Undoing an earlier batch
-- hands the rows a later file in force lists to that file's batch instead of removing them: the
-- ledger is then the one the remaining files make.
CREATE TABLE batch_listed (
    batch_id     INTEGER NOT NULL REFERENCES import_batches(id),
    account_id   INTEGER NOT NULL,
    fingerprints BLOB NOT NULL,
    PRIMARY KEY (batch_id, account_id)
) WITHOUT ROWID;
-- Imports made before this migration noted nothing: undoing an earlier batch then still names them
-- as files that may list rows it took (see `wilson.ledger.undo`).
ALTER TABLE import_batches ADD COLUMN listed_noted INTEGER NOT NULL DEFAULT 0;
