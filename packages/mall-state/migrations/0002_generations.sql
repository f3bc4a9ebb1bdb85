-- Generations and purging. A mall's records are one row set: at first under the mall's own id,
-- and after a reset, fixture or restore under a generation name (`<mall>@<uuid>`, never a mall id)
-- that `malls.rowset` points at. The next generation is written in batches beside the current one
-- (listed in `loose_rowsets` while it is written), the mall is pointed at it in one short
-- transaction that lists the old row set there instead, and the old rows are deleted in chunks;
-- so `mall_records.rowset` is no longer a foreign key of `malls` (a dropped mall's rows are listed
-- and deleted in chunks too). A loose row set older than an hour was left by a stopped replica
-- and is deleted by whichever replica purges next. Tombstones older than
-- the retention are purged; `malls.floor` is the newest version purged from a mall, and a replica
-- holding an older version reads the mall whole instead of by delta. `changed_at` is the
-- database's clock when a row was last written (the one clock every replica shares).
ALTER TABLE mall_records DROP CONSTRAINT mall_records_mall_fkey;
ALTER TABLE mall_records RENAME COLUMN mall TO rowset;
ALTER TABLE mall_records ADD COLUMN changed_at timestamptz NOT NULL DEFAULT now();
CREATE INDEX mall_records_tombstones ON mall_records (changed_at) WHERE value IS NULL;
CREATE INDEX mall_records_by_position ON mall_records (rowset, position);

ALTER TABLE malls ADD COLUMN rowset text;
UPDATE malls SET rowset = mall;
ALTER TABLE malls ALTER COLUMN rowset SET NOT NULL;
ALTER TABLE malls ADD COLUMN floor bigint NOT NULL DEFAULT 0;

CREATE TABLE loose_rowsets (
  rowset text PRIMARY KEY,
  since timestamptz NOT NULL DEFAULT now()
);
