-- Wilson's ledger. Amounts are integer minor units, outflow negative. Dates are ISO calendar dates.

CREATE TABLE accounts (
    id             INTEGER PRIMARY KEY,
    name           TEXT NOT NULL UNIQUE COLLATE NOCASE,
    type           TEXT NOT NULL DEFAULT 'checking'
                   CHECK (type IN ('checking', 'savings', 'credit_card', 'cash', 'loan', 'investment')),
    institution    TEXT,
    number         TEXT,            -- the bank's own account id (OFX ACCTID), used to recognise it again
    currency       TEXT NOT NULL DEFAULT 'USD',
    balance        INTEGER,         -- latest known balance, minor units
    balance_date   TEXT,
    balance_source TEXT CHECK (balance_source IN ('statement', 'running', 'manual')),
    created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE categories (
    id        INTEGER PRIMARY KEY,
    name      TEXT NOT NULL UNIQUE COLLATE NOCASE,
    parent_id INTEGER REFERENCES categories(id) ON DELETE SET NULL,
    kind      TEXT NOT NULL DEFAULT 'expense' CHECK (kind IN ('expense', 'income', 'transfer'))
);

CREATE TABLE import_batches (
    id             INTEGER PRIMARY KEY,
    file_name      TEXT NOT NULL,
    file_path      TEXT,
    file_hash      TEXT NOT NULL,
    format         TEXT NOT NULL,
    account_id     INTEGER REFERENCES accounts(id),
    rows_read      INTEGER NOT NULL DEFAULT 0,
    added          INTEGER NOT NULL DEFAULT 0,
    duplicates     INTEGER NOT NULL DEFAULT 0,
    pending        INTEGER NOT NULL DEFAULT 0,
    skipped        INTEGER NOT NULL DEFAULT 0,
    replaced       TEXT,           -- JSON of pending rows this batch replaced, restored on undo
    imported_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    undone_at      TEXT
);

CREATE TABLE transactions (
    id                INTEGER PRIMARY KEY,
    account_id        INTEGER NOT NULL REFERENCES accounts(id),
    posted            TEXT NOT NULL,
    amount            INTEGER NOT NULL,
    currency          TEXT NOT NULL,
    description       TEXT NOT NULL,
    payee             TEXT,
    category_id       INTEGER REFERENCES categories(id) ON DELETE SET NULL,
    category_source   TEXT,          -- bank, rule, learned, merchant, model, user
    notes             TEXT,
    pending           INTEGER NOT NULL DEFAULT 0,
    reviewed          INTEGER NOT NULL DEFAULT 0,
    bank_id           TEXT,
    batch_id          INTEGER REFERENCES import_batches(id),
    fingerprint       INTEGER NOT NULL,  -- 64-bit hash of date, amount, description, occurrence
    original_amount   INTEGER,
    original_currency TEXT,
    transfer_id       INTEGER REFERENCES transactions(id) ON DELETE SET NULL,  -- the other leg
    created_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

-- Every index costs each imported row; these are the ones bookkeeping queries need. The fingerprint
-- rides in the account/date index, which is what de-duplication reads (writers are serialised by
-- BEGIN IMMEDIATE, so the check inside the import's transaction is the uniqueness guard).
CREATE INDEX transactions_posted ON transactions(posted);
CREATE INDEX transactions_account_posted ON transactions(account_id, posted, fingerprint);
CREATE INDEX transactions_category_posted ON transactions(category_id, posted);
CREATE INDEX transactions_bank_id ON transactions(account_id, bank_id) WHERE bank_id IS NOT NULL;
CREATE INDEX transactions_pending ON transactions(account_id, posted) WHERE pending = 1;  -- small: few rows pend

CREATE TABLE splits (
    id             INTEGER PRIMARY KEY,
    transaction_id INTEGER NOT NULL REFERENCES transactions(id) ON DELETE CASCADE,
    amount         INTEGER NOT NULL,
    category_id    INTEGER REFERENCES categories(id) ON DELETE SET NULL,
    memo           TEXT
);
CREATE INDEX splits_transaction ON splits(transaction_id);

CREATE VIRTUAL TABLE transactions_fts USING fts5(
    description, payee, content='transactions', content_rowid='id', tokenize='unicode61 remove_diacritics 2'
);
-- Rows that arrive in an import batch are indexed in bulk by the importer (one statement per batch
-- is several times faster than a trigger per row); every other insert is indexed here.
CREATE TRIGGER transactions_fts_insert AFTER INSERT ON transactions WHEN new.batch_id IS NULL BEGIN
    INSERT INTO transactions_fts(rowid, description, payee) VALUES (new.id, new.description, new.payee);
END;
CREATE TRIGGER transactions_fts_delete AFTER DELETE ON transactions BEGIN
    INSERT INTO transactions_fts(transactions_fts, rowid, description, payee)
    VALUES ('delete', old.id, old.description, old.payee);
END;
CREATE TRIGGER transactions_fts_update AFTER UPDATE OF description, payee ON transactions BEGIN
    INSERT INTO transactions_fts(transactions_fts, rowid, description, payee)
    VALUES ('delete', old.id, old.description, old.payee);
    INSERT INTO transactions_fts(rowid, description, payee) VALUES (new.id, new.description, new.payee);
END;

CREATE TABLE budgets (
    id          INTEGER PRIMARY KEY,
    category_id INTEGER NOT NULL UNIQUE REFERENCES categories(id) ON DELETE CASCADE,
    amount      INTEGER NOT NULL CHECK (amount >= 0),   -- monthly, minor units
    currency    TEXT NOT NULL DEFAULT 'USD',
    updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE rules (
    id          INTEGER PRIMARY KEY,
    pattern     TEXT NOT NULL,
    match_type  TEXT NOT NULL DEFAULT 'contains' CHECK (match_type IN ('contains', 'regex')),
    field       TEXT NOT NULL DEFAULT 'any' CHECK (field IN ('description', 'payee', 'any')),
    min_amount  INTEGER,
    max_amount  INTEGER,
    category_id INTEGER NOT NULL REFERENCES categories(id) ON DELETE CASCADE,
    source      TEXT NOT NULL DEFAULT 'user' CHECK (source IN ('user', 'learned')),
    strength    INTEGER NOT NULL DEFAULT 1,
    created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE memory (
    id         INTEGER PRIMARY KEY,
    kind       TEXT NOT NULL DEFAULT 'note' CHECK (kind IN ('note', 'goal', 'commitment', 'preference')),
    content    TEXT NOT NULL,
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);

CREATE TABLE sessions (
    id         TEXT PRIMARY KEY,
    title      TEXT,
    model      TEXT,
    messages   TEXT NOT NULL DEFAULT '[]',   -- JSON chat history
    created_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    updated_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
);
