-- gflow catalog, schema version 3: the credit ledger (issue 24).
-- Every generation's operation row carries what Flow quoted before the click and, where a balance
-- read measured it, what it spent. The daily budget (GFLOW_CLI_DAILY_CREDIT_BUDGET, per profile and
-- local day) is decided in one BEGIN IMMEDIATE transaction that sums the day's reserved quotes and
-- reserves this one, so processes racing at the cap cannot both pass.
--   credit_state reserved:  the quote was reserved before the click; it counts toward the day
--                           (whatever happens after the click: the credits may have been spent).
--   credit_state released:  refused or stopped before the click; nothing was sent, it does not count.
--   credit_state estimated: a dry run (--dry-run / dry_run); nothing was sent, it does not count.
ALTER TABLE operations ADD COLUMN surface TEXT CHECK (surface IS NULL OR surface IN ('cli', 'mcp', 'http', 'library'));
ALTER TABLE operations ADD COLUMN credits_quoted INTEGER CHECK (credits_quoted IS NULL OR credits_quoted >= 0);
ALTER TABLE operations ADD COLUMN credits_spent INTEGER CHECK (credits_spent IS NULL OR credits_spent >= 0);
ALTER TABLE operations ADD COLUMN credit_day TEXT CHECK (
  credit_day IS NULL OR credit_day GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
);
ALTER TABLE operations ADD COLUMN credit_state TEXT CHECK (
  credit_state IS NULL OR credit_state IN ('reserved', 'released', 'estimated')
);
-- today's total of one profile (the budget check); usage per day over every profile.
CREATE INDEX operations_credits_by_profile_day ON operations (profile_name, credit_day) WHERE credit_day IS NOT NULL;
CREATE INDEX operations_credits_by_day ON operations (credit_day) WHERE credit_day IS NOT NULL;
