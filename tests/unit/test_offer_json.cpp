#include "lib/admin/offer_json.h"

#include <gtest/gtest.h>

#include <string>

namespace {

TEST(OfferJson, ShapeAndNulls) {
  placard::db::AdminOffer o;
  o.id = 42;
  o.network = "admitad";
  o.external_id = "x1";
  o.title = "<b>\"T\"</b>";
  o.category = "a.b";
  o.countries = {"DE", "US"};
  o.priority = -2;
  o.enabled = false;
  o.tracking_url = "https://m.example/";
  o.valid_until = 1'800'000'000;
  o.created_at = 0;
  o.updated_at = 60;
  o.overrides = {"enabled", "validity"};
  EXPECT_EQ(
      placard::admin::offer_json(o),
      R"({"id":"42","title":"<b>\"T\"</b>","description":null,"merchant":null,)"
      R"("imageUrl":null,"category":"a.b","couponCode":null,)"
      R"("validUntil":"2027-01-15T08:00:00Z","isDemo":false,"network":"admitad",)"
      R"("externalId":"x1","trackingUrl":"https://m.example/","countries":["DE","US"],"allCountries":false,)"
      R"("priority":-2,"enabled":false,"validFrom":null,"createdAt":"1970-01-01T00:00:00Z",)"
      R"("updatedAt":"1970-01-01T00:01:00Z","overrides":["enabled","validity"]})");
}

}  // namespace
