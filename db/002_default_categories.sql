-- The default taxonomy. Users extend it; children roll up into their parents in reports and budgets.
INSERT INTO categories (name, kind) VALUES
    ('Income', 'income'), ('Transfer', 'transfer'),
    ('Housing', 'expense'), ('Utilities', 'expense'), ('Food', 'expense'), ('Transportation', 'expense'),
    ('Shopping', 'expense'), ('Entertainment', 'expense'), ('Health', 'expense'), ('Personal Care', 'expense'),
    ('Education', 'expense'), ('Travel', 'expense'), ('Bills & Subscriptions', 'expense'),
    ('Financial', 'expense'), ('Gifts & Donations', 'expense'), ('Kids', 'expense'), ('Pets', 'expense'),
    ('Business', 'expense'), ('Taxes', 'expense'), ('Other', 'expense');

INSERT INTO categories (name, parent_id, kind)
SELECT child, (SELECT id FROM categories WHERE name = parent), kind FROM (
    SELECT 'Salary' AS child, 'Income' AS parent, 'income' AS kind
    UNION ALL SELECT 'Interest', 'Income', 'income'
    UNION ALL SELECT 'Refunds', 'Income', 'income'
    UNION ALL SELECT 'Other Income', 'Income', 'income'
    UNION ALL SELECT 'Credit Card Payment', 'Transfer', 'transfer'
    UNION ALL SELECT 'Savings Transfer', 'Transfer', 'transfer'
    UNION ALL SELECT 'Rent', 'Housing', 'expense'
    UNION ALL SELECT 'Mortgage', 'Housing', 'expense'
    UNION ALL SELECT 'Home Maintenance', 'Housing', 'expense'
    UNION ALL SELECT 'Electricity', 'Utilities', 'expense'
    UNION ALL SELECT 'Water', 'Utilities', 'expense'
    UNION ALL SELECT 'Internet', 'Utilities', 'expense'
    UNION ALL SELECT 'Phone', 'Utilities', 'expense'
    UNION ALL SELECT 'Groceries', 'Food', 'expense'
    UNION ALL SELECT 'Dining', 'Food', 'expense'
    UNION ALL SELECT 'Coffee', 'Food', 'expense'
    UNION ALL SELECT 'Fuel', 'Transportation', 'expense'
    UNION ALL SELECT 'Public Transit', 'Transportation', 'expense'
    UNION ALL SELECT 'Rideshare', 'Transportation', 'expense'
    UNION ALL SELECT 'Parking', 'Transportation', 'expense'
    UNION ALL SELECT 'Car Insurance', 'Transportation', 'expense'
    UNION ALL SELECT 'Clothing', 'Shopping', 'expense'
    UNION ALL SELECT 'Electronics', 'Shopping', 'expense'
    UNION ALL SELECT 'Household', 'Shopping', 'expense'
    UNION ALL SELECT 'Streaming', 'Bills & Subscriptions', 'expense'
    UNION ALL SELECT 'Software', 'Bills & Subscriptions', 'expense'
    UNION ALL SELECT 'Memberships', 'Bills & Subscriptions', 'expense'
    UNION ALL SELECT 'Insurance', 'Bills & Subscriptions', 'expense'
    UNION ALL SELECT 'Medical', 'Health', 'expense'
    UNION ALL SELECT 'Pharmacy', 'Health', 'expense'
    UNION ALL SELECT 'Fitness', 'Health', 'expense'
    UNION ALL SELECT 'Fees', 'Financial', 'expense'
    UNION ALL SELECT 'Loan Payment', 'Financial', 'expense'
    UNION ALL SELECT 'Charity', 'Gifts & Donations', 'expense'
    UNION ALL SELECT 'Gifts', 'Gifts & Donations', 'expense'
    UNION ALL SELECT 'Hotels', 'Travel', 'expense'
    UNION ALL SELECT 'Flights', 'Travel', 'expense'
);
