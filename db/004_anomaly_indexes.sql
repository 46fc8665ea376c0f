-- detect_anomalies without reading every row of the period.
-- Possible duplicates are outflows with the same account, currency and amount a few days apart:
-- in this order the rows that could pair sit next to each other, so each row's check is one short
-- range probe, and the index alone answers it (it holds every column the probe reads).
CREATE INDEX transactions_same_charge ON transactions(account_id, currency, amount, posted)
WHERE pending = 0 AND amount < 0;

-- New payees: each payee's first date is the first entry under its key, so the distinct payees and
-- whether each was seen before a date take one probe per payee instead of a scan of the period.
CREATE INDEX transactions_payee_first ON transactions(lower(payee), posted) WHERE payee IS NOT NULL;
