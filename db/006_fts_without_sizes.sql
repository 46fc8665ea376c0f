-- The full-text index keeps no per-row column sizes (`columnsize=0`). Only ranking functions such
-- as bm25() read them, and Wilson filters by words without ranking; writing a size record for every
-- row was three quarters of the index's cost on a 100k-row import.
DROP TABLE transactions_fts;
CREATE VIRTUAL TABLE transactions_fts USING fts5(
    description, payee, content='transactions', content_rowid='id', tokenize='unicode61 remove_diacritics 2',
    columnsize=0
);
INSERT INTO transactions_fts(transactions_fts) VALUES ('rebuild');
