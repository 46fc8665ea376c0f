-- Reports read a maintained monthly aggregate instead of scanning every row: one row per month,
-- account, category, currency, transfer link and sign, kept exact by triggers on transactions.
-- Pending rows never enter it (they never count in reports). `category_id` 0 means uncategorised,
-- `linked` 1 means the rows have a transfer leg, `inflow` 1 means amount > 0, so every aggregate row
-- holds rows of one sign and the shared flow rule (FLOW_SQL) applies to it exactly as to a row;
-- `monthly_flow_rows` exposes it under the transactions column names for that purpose.

CREATE TABLE monthly_flows (
    month       TEXT NOT NULL,
    account_id  INTEGER NOT NULL,
    category_id INTEGER NOT NULL,
    currency    TEXT NOT NULL,
    linked      INTEGER NOT NULL,
    inflow      INTEGER NOT NULL,
    amount      INTEGER NOT NULL,
    count       INTEGER NOT NULL,
    PRIMARY KEY (month, account_id, category_id, currency, linked, inflow)
) WITHOUT ROWID;

CREATE VIEW monthly_flow_rows AS
SELECT month, account_id, NULLIF(category_id, 0) AS category_id, currency,
       CASE WHEN linked = 1 THEN 1 END AS transfer_id, amount, count
FROM monthly_flows;

INSERT INTO monthly_flows
SELECT substr(posted, 1, 7), account_id, IFNULL(category_id, 0), currency, transfer_id IS NOT NULL, amount > 0,
       SUM(amount), COUNT(*)
FROM transactions WHERE pending = 0 GROUP BY 1, 2, 3, 4, 5, 6;

-- Import batches add their rows in one grouped statement instead (wilson/ledger/aggregates.py).
CREATE TRIGGER monthly_flows_insert AFTER INSERT ON transactions WHEN new.pending = 0 AND new.batch_id IS NULL BEGIN
    INSERT INTO monthly_flows VALUES (substr(new.posted, 1, 7), new.account_id, IFNULL(new.category_id, 0),
        new.currency, new.transfer_id IS NOT NULL, new.amount > 0, new.amount, 1)
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + 1;
END;

CREATE TRIGGER monthly_flows_delete AFTER DELETE ON transactions WHEN old.pending = 0 BEGIN
    UPDATE monthly_flows SET amount = amount - old.amount, count = count - 1
    WHERE month = substr(old.posted, 1, 7) AND account_id = old.account_id
      AND category_id = IFNULL(old.category_id, 0) AND currency = old.currency
      AND linked = (old.transfer_id IS NOT NULL) AND inflow = (old.amount > 0);
    DELETE FROM monthly_flows WHERE count = 0 AND month = substr(old.posted, 1, 7) AND account_id = old.account_id;
END;

CREATE TRIGGER monthly_flows_update
AFTER UPDATE OF posted, amount, currency, account_id, category_id, pending, transfer_id ON transactions BEGIN
    UPDATE monthly_flows SET amount = amount - old.amount, count = count - 1
    WHERE old.pending = 0 AND month = substr(old.posted, 1, 7) AND account_id = old.account_id
      AND category_id = IFNULL(old.category_id, 0) AND currency = old.currency
      AND linked = (old.transfer_id IS NOT NULL) AND inflow = (old.amount > 0);
    DELETE FROM monthly_flows WHERE count = 0 AND month = substr(old.posted, 1, 7) AND account_id = old.account_id;
    INSERT INTO monthly_flows SELECT substr(new.posted, 1, 7), new.account_id, IFNULL(new.category_id, 0),
        new.currency, new.transfer_id IS NOT NULL, new.amount > 0, new.amount, 1
    WHERE new.pending = 0
    ON CONFLICT DO UPDATE SET amount = amount + excluded.amount, count = count + 1;
END;

-- Full-text search counts and sums every hit: reading these columns from a narrow index keyed by
-- id costs a fraction of reading the wide rows (used with INDEXED BY from wilson.tools.scope).
CREATE INDEX transactions_search ON transactions(id, pending, posted, currency, amount, account_id, category_id);
