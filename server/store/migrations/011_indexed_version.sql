-- Which version of the indexer (INDEX_VERSION, server/search/indexer.ts) wrote each page's
-- sections: a server indexes again, from the stored content, the pages an earlier version
-- wrote, so a change to how pages are cut or indexed reaches the pages pushed before it
-- without their being pushed again. Pages stored before this migration count as version 0.
ALTER TABLE pages ADD COLUMN indexed_version integer NOT NULL DEFAULT 0;
CREATE INDEX pages_indexed_version ON pages (indexed_version, seq);
