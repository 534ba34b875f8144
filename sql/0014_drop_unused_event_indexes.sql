-- Every index on the raw event tables is paid for by every impression and click recorded (issue
-- 24: a fresh event's database CPU is mostly InnoDB's index maintenance and the durable commit).
-- impressions_offer_time and clicks_offer_time (offer_id, time) served the reports when they
-- read the raw rows; since the rollup step (0005) the reports read only the rollups, and no
-- query of the service reads the raw tables by offer: the rollups read them by id, the per-client
-- limits by impressions_client / clicks_client, retention by impressions_recorded /
-- clicks_clicked, deduplication by the token nonce. Dropping a secondary index is an in-place
-- change in InnoDB (no table copy, writes go on). Append-only: never edited after it is applied.

ALTER TABLE impressions DROP KEY impressions_offer_time;
ALTER TABLE clicks DROP KEY clicks_offer_time;
