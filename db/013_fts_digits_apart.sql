-- Digits are separators in the full-text index. A bank's reference numbers, trace ids and dates
-- inside descriptions (`DEBIT CARD PURCHASE 01/02 … REF 9855630065`) make nearly every row's terms
-- its own, and indexing those unique terms was two thirds of the index's cost on a 100k-row import.
-- Searches find a word holding digits by its letters here and by substring in the row
-- (wilson.tools.scope).
DROP TABLE transactions_fts;
CREATE VIRTUAL TABLE transactions_fts USING fts5(
    description, payee, content='transactions', content_rowid='id',
    tokenize="unicode61 remove_diacritics 2 separators '0123456789'", columnsize=0
);
INSERT INTO transactions_fts(transactions_fts) VALUES ('rebuild');
