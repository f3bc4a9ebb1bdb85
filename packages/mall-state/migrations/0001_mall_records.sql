-- The sandbox malls on PostgreSQL: one row per mall (its version, bumped by every committed
-- write) and one row per record of a mall. Versions come from one sequence, so a mall dropped and
-- created again never repeats a version a replica may still hold. A deleted record stays as a
-- tombstone (value NULL) so a replica catches up by delta (version > the one it holds); `position`
-- keeps insertion order, which the stores' tables preserve. `json`, not `jsonb`: it keeps the
-- records' field order, which the API's answers show.
CREATE SEQUENCE mall_versions;

CREATE TABLE malls (
  mall text PRIMARY KEY,
  version bigint NOT NULL,
  created bigint NOT NULL
);

CREATE SEQUENCE mall_record_positions;

CREATE TABLE mall_records (
  mall text NOT NULL REFERENCES malls (mall) ON DELETE CASCADE,
  tbl text NOT NULL,
  key text NOT NULL,
  value json,
  version bigint NOT NULL,
  position bigint NOT NULL DEFAULT nextval('mall_record_positions'),
  PRIMARY KEY (mall, tbl, key)
);

CREATE INDEX mall_records_by_version ON mall_records (mall, version);
