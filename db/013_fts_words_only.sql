-- The full-text index keeps only which rows hold each word (`detail=none`), not where in which
-- column. Wilson's searches are words that must all appear, each a prefix (wilson/tools/scope.py),
-- never a phrase, a NEAR group or a column filter, which are what positions and columns serve.
-- Writing them was two fifths of the index's cost on a 100k-row import, and made it larger.
DROP TABLE transactions_fts;
CREATE VIRTUAL TABLE transactions_fts USING fts5(
    description, payee, content='transactions', content_rowid='id', tokenize='unicode61 remove_diacritics 2',
    columnsize=0, detail=none
);
INSERT INTO transactions_fts(transactions_fts) VALUES ('rebuild');
