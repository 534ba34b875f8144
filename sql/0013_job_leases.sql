-- Cluster-wide job leases (issue 25): one network sync, one rollup, one retention pass and one
-- monthly stats build at a time across every host, whatever the database tier. GET_LOCK is local
-- to one server: over one primary (with or without replicas) it excludes every host, but in a
-- Galera cluster each node has its own locks, so two hosts writing to two nodes would both get
-- it. A lease is a row here, taken with one autocommit INSERT ... ON DUPLICATE KEY UPDATE that
-- only changes the holder when the lease has expired: on one server InnoDB's row lock orders
-- two takers; in Galera two nodes' writes to the same row conflict at certification and the
-- second commit fails (ER_LOCK_DEADLOCK), so exactly one holder is left. The holder removes
-- its row when the job ends. A holder also holds GET_LOCK of the same name on its own server
-- (`node`: that server's identity) for as long as it holds the lease, so a taker that got the
-- named lock on the same server knows the row's holder is gone and takes it at once (a worker
-- killed mid-sync on a single primary: the next sync starts). A row from a holder on another
-- Galera node that died expires (lib/db/named_lock.cpp).
-- Append-only: never edited after it is applied.

CREATE TABLE job_leases (
  name VARCHAR(64) NOT NULL,
  holder VARCHAR(64) NOT NULL,
  node CHAR(32) NOT NULL,
  expires_at DATETIME(3) NOT NULL,
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COLLATE=utf8mb4_unicode_ci;
