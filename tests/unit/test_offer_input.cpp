// The admin API's offer bodies without a database: the checks of POST and PATCH bodies (which
// field each refusal names) and the overrides.
#include "lib/admin/offer_input.h"

#include <gtest/gtest.h>

#include <string>

#include "lib/http/api_error.h"

namespace {

using placard::admin::OfferCreateInput;
using placard::admin::OfferPatchInput;
using placard::http::ApiError;
using placard::http::Request;

Request json_request(const std::string& body) {
  Request r;
  r.method = "POST";
  r.headers.push_back({"content-type", "application/json"});
  r.content_length = body.size();
  r.body = body;
  return r;
}

OfferCreateInput create(const std::string& body) {
  Request r = json_request(body);
  return placard::admin::parse_offer_create(r);
}

OfferPatchInput patch(const std::string& body) {
  Request r = json_request(body);
  return placard::admin::parse_offer_patch(r);
}

// The refusal of a POST body with `fields` added to a valid manual offer: "code field".
template <typename Parse>
std::string refusal(Parse parse, const std::string& body) {
  try {
    parse(body);
  } catch (const ApiError& e) {
    return std::to_string(e.status()) + " " + e.code() + " " + e.field();
  }
  return "accepted";
}

constexpr const char* kValid =
    R"("title": "T", "category": "books", "trackingUrl": "https://m.example/x")";

std::string create_refusal(const std::string& extra) {
  return refusal(create, std::string("{") + kValid + (extra.empty() ? "" : ", " + extra) + "}");
}

std::string create_refusal_without(const std::string& body) {
  return refusal(create, body);
}

std::string patch_refusal(const std::string& body) {
  return refusal(patch, body);
}

TEST(OfferCreate, ManualOfferWithDefaults) {
  const auto in = create(std::string("{") + kValid + "}");
  EXPECT_EQ(in.offer.title, "T");
  EXPECT_EQ(in.category, "books");
  EXPECT_TRUE(in.countries.empty());
  EXPECT_EQ(in.offer.priority, 0);
  EXPECT_TRUE(in.offer.enabled);
  EXPECT_FALSE(in.offer.is_demo);
  EXPECT_EQ(in.offer.tracking_url, "https://m.example/x");
  EXPECT_FALSE(in.offer.description || in.offer.merchant || in.offer.image_url ||
               in.offer.coupon_code || in.offer.valid_from || in.offer.valid_until);
}

TEST(OfferCreate, EveryField) {
  const auto in = create(
      R"({"title": "T", "description": null, "merchant": "", "imageUrl": "http://c.example/i",
          "couponCode": "C", "category": "a.b", "countries": ["US", "DE", "US"], "priority": -3,
          "enabled": false, "trackingUrl": "https://m.example/", "validFrom":
          "2026-01-01T00:00:00Z", "validUntil": "2026-01-01T02:00:01+02:00"})");
  EXPECT_FALSE(in.offer.description);
  EXPECT_EQ(in.offer.merchant, "");
  EXPECT_EQ(in.offer.image_url, "http://c.example/i");
  EXPECT_EQ(in.countries, (std::vector<std::string>{"US", "DE", "US"}));
  EXPECT_EQ(in.offer.priority, -3);
  EXPECT_FALSE(in.offer.enabled);
  EXPECT_EQ(*in.offer.valid_until - *in.offer.valid_from, 1);
}

TEST(OfferCreate, DemonstrationOfferHasNoTrackingUrl) {
  const auto in = create(R"({"title": "D", "category": "books", "isDemo": true})");
  EXPECT_TRUE(in.offer.is_demo);
  EXPECT_FALSE(in.offer.tracking_url);
  EXPECT_EQ(refusal(create, R"({"title": "D", "category": "books", "isDemo": true,
                                 "trackingUrl": null})"),
            "accepted");
  EXPECT_EQ(refusal(create, R"({"title": "D", "category": "books", "isDemo": true,
                                 "trackingUrl": "https://m.example/"})"),
            "400 invalid_field trackingUrl");
}

TEST(OfferCreate, RefusalsNameTheField) {
  EXPECT_EQ(create_refusal_without(R"({"category": "books", "trackingUrl": "https://m.e/"})"),
            "400 missing_field title");
  EXPECT_EQ(create_refusal_without(R"({"title": "T", "trackingUrl": "https://m.e/"})"),
            "400 missing_field category");
  EXPECT_EQ(create_refusal_without(R"({"title": "T", "category": "books"})"),
            "400 missing_field trackingUrl");
  EXPECT_EQ(create_refusal(R"("title2": 1)"), "400 invalid_field title2");
  EXPECT_EQ(create_refusal(R"("network": "awin")"), "400 invalid_field network");
  EXPECT_EQ(refusal(create, R"({"title": "", "category": "books"})"), "400 invalid_field title");
  EXPECT_EQ(refusal(create, "{\"title\": \"" + std::string(201, 'x') + "\"}"),
            "400 invalid_field title");
  EXPECT_EQ(refusal(create, std::string("{") + kValid + ", \"description\": \"" +
                                std::string(2001, 'x') + "\"}"),
            "400 invalid_field description");
  EXPECT_EQ(create_refusal(R"("merchant": 3)"), "400 invalid_field merchant");
  EXPECT_EQ(create_refusal(R"("imageUrl": "ftp://x.example/")"), "400 invalid_field imageUrl");
  EXPECT_EQ(create_refusal("\"couponCode\": \"" + std::string(65, 'c') + "\""),
            "400 invalid_field couponCode");
  EXPECT_EQ(
      refusal(create, R"({"title": "T", "category": "Books", "trackingUrl": "https://m.e/"})"),
      "400 invalid_field category");
  EXPECT_EQ(create_refusal(R"("countries": "US")"), "400 invalid_field countries");
  EXPECT_EQ(create_refusal(R"("countries": ["US", "usa"])"), "400 invalid_field countries[1]");
  EXPECT_EQ(create_refusal(R"("countries": [null])"), "400 invalid_field countries[0]");
  EXPECT_EQ(create_refusal(R"("priority": 1001)"), "400 invalid_field priority");
  EXPECT_EQ(create_refusal(R"("priority": -1001)"), "400 invalid_field priority");
  EXPECT_EQ(create_refusal(R"("priority": 2.5)"), "400 invalid_field priority");
  EXPECT_EQ(create_refusal(R"("enabled": 1)"), "400 invalid_field enabled");
  EXPECT_EQ(create_refusal(R"("isDemo": null)"), "400 invalid_field isDemo");
  EXPECT_EQ(refusal(create, R"({"title": "T", "category": "books", "trackingUrl": null})"),
            "400 invalid_field trackingUrl");
  EXPECT_EQ(refusal(create, R"({"title": "T", "category": "books", "trackingUrl": "mailto:x@y"})"),
            "400 invalid_field trackingUrl");
  EXPECT_EQ(create_refusal(R"("validFrom": "2026-01-01")"), "400 invalid_field validFrom");
  EXPECT_EQ(create_refusal(R"("validUntil": "1969-12-31T23:59:59Z")"),
            "400 invalid_field validUntil");
  EXPECT_EQ(create_refusal(R"("validFrom": "2026-01-02T00:00:00Z",
                              "validUntil": "2026-01-02T00:00:00Z")"),
            "400 invalid_field validUntil");
  // the first broken rule answers: title before category before priority
  EXPECT_EQ(refusal(create, R"({"title": "", "category": "X", "priority": 5000})"),
            "400 invalid_field title");
  EXPECT_EQ(refusal(create, R"({"title": "T", "category": "X", "priority": 5000})"),
            "400 invalid_field category");
}

TEST(OfferPatch, FieldsPresentOnly) {
  const auto p = patch(R"({"priority": 5, "validUntil": null})");
  EXPECT_EQ(p.priority, 5);
  ASSERT_TRUE(p.valid_until);
  EXPECT_FALSE(*p.valid_until);
  EXPECT_FALSE(p.enabled || p.valid_from || p.category || p.countries || p.is_demo);
  EXPECT_TRUE(patch("{}").empty());
}

TEST(OfferPatch, Refusals) {
  EXPECT_EQ(patch_refusal(R"({"title": "x"})"), "400 invalid_field title");
  EXPECT_EQ(patch_refusal(R"({"trackingUrl": "https://m.example/"})"),
            "400 invalid_field trackingUrl");
  EXPECT_EQ(patch_refusal(R"({"priority": null})"), "400 invalid_field priority");
  EXPECT_EQ(patch_refusal(R"({"enabled": "false"})"), "400 invalid_field enabled");
  EXPECT_EQ(patch_refusal(R"({"category": 1})"), "400 invalid_field category");
  EXPECT_EQ(patch_refusal(R"({"countries": ["DE", "D"]})"), "400 invalid_field countries[1]");
  EXPECT_EQ(patch_refusal(R"({"validFrom": "2027-01-01T00:00:00Z",
                              "validUntil": "2026-01-01T00:00:00Z"})"),
            "400 invalid_field validUntil");
  EXPECT_EQ(patch_refusal("[]"), "400 invalid_json ");
}

TEST(OfferPatch, OverridesKeepTheOldAndAddTheNewInOrder) {
  using placard::admin::merged_overrides;
  EXPECT_EQ(merged_overrides({}, patch(R"({"priority": 1, "enabled": true})")),
            (std::vector<std::string>{"enabled", "priority"}));
  EXPECT_EQ(merged_overrides({"countries"}, patch(R"({"validFrom": null})")),
            (std::vector<std::string>{"countries", "validity"}));
  EXPECT_EQ(merged_overrides({"validity"}, patch(R"({"validUntil": null, "category": "a"})")),
            (std::vector<std::string>{"category", "validity"}));
  EXPECT_EQ(merged_overrides({"enabled"}, patch(R"({"isDemo": false})")),
            (std::vector<std::string>{"enabled"}));
}

}  // namespace
