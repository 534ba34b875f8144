-- The network sync (contract section 8) imports offers the public API does not serve yet:
-- - an offer whose network category is not mapped has no Placard category: `category_id` NULL
--   (imported, listed by the admin API with "category": null, never in the catalog snapshot);
-- - "every selected country" (Awin `regions.all`) is `all_countries` TRUE: the snapshot offers it
--   in each selected country, whatever is selected when it is built; its offer_countries stay
--   empty. An administrator's `countries` replaces it with the list given (all_countries FALSE).
-- - `network_category_ids`: the offer's network categories as the network listed them ("7,62"),
--   so that mapping a network category (PUT /network/category-map/...) re-derives the Placard
--   category of the offers that carry it at once, not at the next sync.
-- Append-only: never edited after it is applied.

ALTER TABLE offers
  MODIFY COLUMN category_id INT UNSIGNED NULL,
  ADD COLUMN all_countries BOOLEAN NOT NULL DEFAULT FALSE AFTER overrides,
  ADD COLUMN network_category_ids VARCHAR(1000) CHARACTER SET ascii COLLATE ascii_bin NULL
    AFTER all_countries;
