#include <gtest/gtest.h>

#include <algorithm>

#include "lib/network/sync_plan.h"

namespace {

using namespace placard::network;

constexpr std::int64_t kNow = 1'800'000'000;

NetworkOffer offer(const std::string& id,
                   std::vector<std::pair<std::string, std::string>> cats = {},
                   std::optional<std::int64_t> until = std::nullopt,
                   std::string url = "https://t.example/g/1/?i=3") {
  NetworkOffer o;
  o.external_id = id;
  o.title = "Offer " + id;
  o.categories = std::move(cats);
  o.valid_until = until;
  o.tracking_url = std::move(url);
  return o;
}

ExistingOffer existing(std::uint64_t id, const std::string& ext, bool enabled = true,
                       Overrides o = {}) {
  return {id, ext, enabled, o};
}

std::vector<std::string> ids(const std::vector<PlannedOffer>& v) {
  std::vector<std::string> out;
  out.reserve(v.size());
  for (const auto& p : v) out.push_back(p.offer.external_id);
  return out;
}

TEST(SyncPlan, CreatesUpdatesAndDisablesWhatIsGone) {
  const auto plan = plan_sync({offer("a"), offer("b"), offer("new")},
                              {existing(1, "a"), existing(2, "b", false), existing(3, "gone"),
                               existing(4, "gone-disabled", false)},
                              {}, kNow);
  EXPECT_EQ(ids(plan.create), (std::vector<std::string>{"new"}));
  ASSERT_EQ(plan.update.size(), 2u);
  EXPECT_EQ(plan.update[0].id, 1u);
  EXPECT_EQ(plan.update[1].id, 2u);
  EXPECT_TRUE(plan.update[1].enable);                        // back in the answer: enabled again
  EXPECT_EQ(plan.disable, (std::vector<std::uint64_t>{3}));  // 4 is disabled already
  EXPECT_EQ(plan.skipped, 0u);
}

TEST(SyncPlan, GoneIsDisabledEvenWhenAnAdministratorEnabledIt) {
  Overrides o;
  o.enabled = true;
  const auto plan = plan_sync({}, {existing(7, "x", true, o)}, {}, kNow);
  EXPECT_EQ(plan.disable, (std::vector<std::uint64_t>{7}));
}

TEST(SyncPlan, OverridesAreKept) {
  Overrides o;
  o.category = true;
  o.priority = true;
  const auto plan = plan_sync({offer("a", {{"62", "Electronics"}})}, {existing(1, "a", true, o)},
                              {{"62", 1002}}, kNow);
  ASSERT_EQ(plan.update.size(), 1u);
  EXPECT_TRUE(plan.update[0].keep.category);
  EXPECT_TRUE(plan.update[0].keep.priority);
  EXPECT_FALSE(plan.update[0].keep.enabled);
  EXPECT_FALSE(plan.update[0].keep.countries);
}

TEST(SyncPlan, PastTheEnd) {
  Overrides validity;
  validity.validity = true;
  Overrides enabled;
  enabled.enabled = true;
  const auto plan =
      plan_sync({offer("old", {}, kNow), offer("older", {}, kNow - 1), offer("kept", {}, kNow - 10),
                 offer("forced", {}, kNow - 10), offer("new-dead", {}, kNow - 5),
                 offer("live", {}, kNow + 1)},
                {existing(1, "old"), existing(2, "older", false),
                 existing(3, "kept", true, validity), existing(4, "forced", true, enabled)},
                {}, kNow);
  EXPECT_EQ(plan.disable, (std::vector<std::uint64_t>{1}));         // 2 already off, 4 forced on
  EXPECT_EQ(ids(plan.create), (std::vector<std::string>{"live"}));  // new-dead not created
  ASSERT_EQ(plan.update.size(), 1u);
  EXPECT_EQ(plan.update[0].id, 3u);  // the administrator's validity wins
}

TEST(SyncPlan, UntrackableAndRepeatedAreSkipped) {
  const auto plan =
      plan_sync({offer("a", {}, std::nullopt, "javascript:alert(1)"),
                 offer("b", {}, std::nullopt, "ftp://x.example/"), offer("c", {}, std::nullopt, ""),
                 offer("d", {}, std::nullopt, "https://x.example/a b"),
                 offer("e", {}, std::nullopt, "http://t.example/?x=1"), offer("e"),
                 offer("f", {}, std::nullopt, "HTTPS://T.example/")},
                {existing(1, "a")}, {}, kNow);
  EXPECT_EQ(plan.skipped, 5u);
  EXPECT_EQ(ids(plan.create), (std::vector<std::string>{"e", "f"}));
  EXPECT_EQ(plan.disable, (std::vector<std::uint64_t>{1}));  // a's link is unusable: gone
}

TEST(SyncPlan, CategoryIsTheFirstMappedAndSeenCategoriesAreListed) {
  const auto plan =
      plan_sync({offer("a", {{"7", "Audio"}, {"62", "Electronics"}}), offer("b", {{"9", "Books"}}),
                 offer("c", {{"62", "Electronics (renamed)"}})},
                {}, {{"7", std::nullopt}, {"62", 1000}}, kNow);
  ASSERT_EQ(plan.create.size(), 3u);
  EXPECT_EQ(plan.create[0].category_id, 1000u);  // 7 is known but unmapped
  EXPECT_EQ(plan.create[1].category_id, std::nullopt);
  EXPECT_EQ(plan.create[2].category_id, 1000u);
  EXPECT_EQ(plan.categories_seen, (std::vector<std::pair<std::string, std::string>>{
                                      {"7", "Audio"}, {"62", "Electronics"}, {"9", "Books"}}));
}

TEST(SyncPlan, TrackableUrl) {
  EXPECT_TRUE(trackable_url("https://ad.track-host.example/g/abc/?i=3&erid=X"));
  EXPECT_TRUE(trackable_url("http://www.awin1.com/cread.php?awinmid=1"));
  for (const char* bad : {"", "https://", "//x.example/", "mailto:a@b", "https://u@x.example/",
                          "https://x.example/\t"}) {
    EXPECT_FALSE(trackable_url(bad)) << bad;
  }
}

}  // namespace
