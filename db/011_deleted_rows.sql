-- An imported row the user deleted keeps its fingerprint here, so that importing the file again, or
-- a later export that overlaps it, does not bring it back: re-importing adds nothing.
CREATE TABLE deleted_rows (
    account_id  INTEGER NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    posted      TEXT NOT NULL,
    fingerprint INTEGER NOT NULL,
    deleted_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
CREATE INDEX deleted_rows_account_posted ON deleted_rows(account_id, posted);
