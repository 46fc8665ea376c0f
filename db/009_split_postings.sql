-- Reports count a split transaction under its parts' categories. A transaction's postings are its
-- split parts, plus the rest (amount minus the parts) under its own category; the rest is left out
-- when parts exist and leave nothing (as the journal export posts them). A transaction without parts
-- is one posting of its whole amount. `monthly_flows` (db/003) now sums postings, and `count` counts
-- postings: a transaction split in two counts once under each category.
--
-- The triggers keep the aggregate exact. A transaction with parts has its postings taken out before
-- a change (to it or to one of its parts) and put back after it, read from the views below, so no
-- trigger has to work out what a change did to the rest. Every change is a signed upsert, so the
-- order in which they arrive does not matter: an import batch inserts its splits before it counts
-- its rows in bulk (wilson/ledger/aggregates.py), and the two add up. A group can pass through a
-- negative count meanwhile; groups back at zero are deleted, found through a partial index that
-- stays empty between writes.

-- Postings of the transactions that have parts. Both halves drive from the splits table, which
-- holds few rows next to transactions.
CREATE VIEW split_postings AS
SELECT t.id, t.posted, t.account_id, t.currency, t.transfer_id, t.pending, t.payee, t.description, t.category_id,
       t.amount - p.parts AS amount
FROM (SELECT transaction_id, SUM(amount) AS parts FROM splits GROUP BY transaction_id) p
CROSS JOIN transactions t ON t.id = p.transaction_id
WHERE t.amount != p.parts
UNION ALL
SELECT t.id, t.posted, t.account_id, t.currency, t.transfer_id, t.pending, t.payee, t.description, s.category_id,
       s.amount
FROM splits s CROSS JOIN transactions t ON t.id = s.transaction_id;

-- Every transaction's postings: a period's rows are read once, each checked for parts by one probe.
CREATE VIEW transaction_postings AS
SELECT t.id, t.posted, t.account_id, t.currency, t.transfer_id, t.pending, t.payee, t.description, t.category_id,
       t.amount
FROM transactions t WHERE NOT EXISTS (SELECT 1 FROM splits s WHERE s.transaction_id = t.id)
UNION ALL
SELECT * FROM split_postings;

CREATE INDEX monthly_flows_emptied ON monthly_flows(count) WHERE count <= 0;

DROP TRIGGER monthly_flows_delete;
DROP TRIGGER monthly_flows_update;

-- A row without parts is one posting, read from old/new as before: most rows take this path, and
-- recounting through the view costs several times more per row (an undo deletes a whole batch).
CREATE TRIGGER monthly_flows_delete BEFORE DELETE ON transactions
WHEN old.pending = 0 AND NOT EXISTS (SELECT 1 FROM splits WHERE transaction_id = old.id) BEGIN
    INSERT INTO monthly_flows VALUES (substr(old.posted, 1, 7), old.account_id, IFNULL(old.category_id, 0),
        old.currency, old.transfer_id IS NOT NULL, old.amount > 0, -old.amount, -1)
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0;
END;

CREATE TRIGGER monthly_flows_update
AFTER UPDATE OF posted, amount, currency, account_id, category_id, pending, transfer_id ON transactions
WHEN NOT EXISTS (SELECT 1 FROM splits WHERE transaction_id = new.id) BEGIN
    INSERT INTO monthly_flows SELECT substr(old.posted, 1, 7), old.account_id, IFNULL(old.category_id, 0),
        old.currency, old.transfer_id IS NOT NULL, old.amount > 0, -old.amount, -1
    WHERE old.pending = 0
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    INSERT INTO monthly_flows SELECT substr(new.posted, 1, 7), new.account_id, IFNULL(new.category_id, 0),
        new.currency, new.transfer_id IS NOT NULL, new.amount > 0, new.amount, 1
    WHERE new.pending = 0
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0;
END;

-- A row with parts: its postings out before the change, back after it. A delete cascades to the
-- parts only once the row is gone, so the parts' triggers below then find nothing to recount.
CREATE TRIGGER monthly_flows_delete_split BEFORE DELETE ON transactions
WHEN old.pending = 0 AND EXISTS (SELECT 1 FROM splits WHERE transaction_id = old.id) BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           -SUM(amount), -COUNT(*)
    FROM split_postings WHERE id = old.id GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0;
END;

CREATE TRIGGER monthly_flows_update_split_before
BEFORE UPDATE OF posted, amount, currency, account_id, category_id, pending, transfer_id ON transactions
WHEN old.pending = 0 AND EXISTS (SELECT 1 FROM splits WHERE transaction_id = old.id) BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           -SUM(amount), -COUNT(*)
    FROM split_postings WHERE id = old.id GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
END;

CREATE TRIGGER monthly_flows_update_split
AFTER UPDATE OF posted, amount, currency, account_id, category_id, pending, transfer_id ON transactions
WHEN EXISTS (SELECT 1 FROM splits WHERE transaction_id = new.id) BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           SUM(amount), COUNT(*)
    FROM split_postings WHERE id = new.id AND pending = 0 GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0;
END;

CREATE TRIGGER monthly_flows_split_insert_before BEFORE INSERT ON splits BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           -SUM(amount), -COUNT(*)
    FROM transaction_postings WHERE id = new.transaction_id AND pending = 0 GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
END;

CREATE TRIGGER monthly_flows_split_insert AFTER INSERT ON splits BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           SUM(amount), COUNT(*)
    FROM transaction_postings WHERE id = new.transaction_id AND pending = 0 GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0;
END;

-- A transaction's delete cascades to its parts after the transaction row is gone: its own delete
-- trigger has already taken out every posting, and these find no transaction to recount.
CREATE TRIGGER monthly_flows_split_delete_before BEFORE DELETE ON splits BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           -SUM(amount), -COUNT(*)
    FROM transaction_postings WHERE id = old.transaction_id AND pending = 0 GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
END;

CREATE TRIGGER monthly_flows_split_delete AFTER DELETE ON splits BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           SUM(amount), COUNT(*)
    FROM transaction_postings WHERE id = old.transaction_id AND pending = 0 GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0;
END;

-- A part moved to another transaction changes both.
CREATE TRIGGER monthly_flows_split_update_before BEFORE UPDATE OF transaction_id, amount, category_id ON splits BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           -SUM(amount), -COUNT(*)
    FROM transaction_postings WHERE id IN (old.transaction_id, new.transaction_id) AND pending = 0
    GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
END;

CREATE TRIGGER monthly_flows_split_update AFTER UPDATE OF transaction_id, amount, category_id ON splits BEGIN
    INSERT INTO monthly_flows
    SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
           SUM(amount), COUNT(*)
    FROM transaction_postings WHERE id IN (old.transaction_id, new.transaction_id) AND pending = 0
    GROUP BY 1, 2, 3, 4, 5, 6
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + excluded.count;
    DELETE FROM monthly_flows WHERE count <= 0 AND count = 0 AND amount = 0;
END;

-- Existing ledgers counted split transactions whole: count everything again.
DELETE FROM monthly_flows;
INSERT INTO monthly_flows
SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
       SUM(amount), COUNT(*)
FROM transaction_postings WHERE pending = 0 GROUP BY 1, 2, 3, 4, 5, 6;
