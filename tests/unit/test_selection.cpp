#include "lib/catalog/selection.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <vector>

#include "lib/catalog/snapshot.h"
#include "lib/util/fast_rng.h"

namespace {

using placard::catalog::kOpenEnd;
using placard::catalog::kOpenStart;
using placard::catalog::LiveOffer;
using placard::catalog::select_offers;
using placard::util::FastRng;

constexpr std::int64_t kNow = 1'800'000'000;

LiveOffer offer(std::uint64_t id, std::int32_t priority, std::int64_t from = kOpenStart,
                std::int64_t until = kOpenEnd) {
  LiveOffer o;
  o.id = id;
  o.priority = priority;
  o.valid_from = from;
  o.valid_until = until;
  return o;
}

// Candidate indices of `offers` sorted by priority, highest first (ties by index), as the
// snapshot builder produces them.
std::vector<std::uint32_t> sorted_candidates(const std::vector<LiveOffer>& offers) {
  std::vector<std::uint32_t> c(offers.size());
  std::iota(c.begin(), c.end(), 0u);
  std::stable_sort(c.begin(), c.end(), [&](std::uint32_t a, std::uint32_t b) {
    return offers[a].priority > offers[b].priority;
  });
  return c;
}

// Checks every rule of select_offers for one call; returns false (with failures recorded)
// when any is broken.
void check_selection(const std::vector<LiveOffer>& offers,
                     const std::vector<std::uint32_t>& candidates, std::size_t want,
                     std::int64_t now, const std::vector<std::uint32_t>& result,
                     const std::string& label) {
  const std::set<std::uint32_t> candidate_set(candidates.begin(), candidates.end());
  std::size_t valid = 0;
  for (const auto idx : candidate_set) valid += offers[idx].valid_at(now) ? 1 : 0;

  EXPECT_EQ(result.size(), std::min(want, valid)) << label;
  std::set<std::uint32_t> seen;
  for (const auto idx : result) {
    EXPECT_TRUE(candidate_set.count(idx)) << label << ": " << idx << " is not a candidate";
    EXPECT_TRUE(seen.insert(idx).second) << label << ": duplicate " << idx;
    ASSERT_LT(idx, offers.size()) << label;
    EXPECT_TRUE(offers[idx].valid_at(now)) << label << ": " << idx << " not valid at now";
  }
  for (std::size_t i = 1; i < result.size(); ++i) {
    EXPECT_GE(offers[result[i - 1]].priority, offers[result[i]].priority)
        << label << ": priorities increase at position " << i;
  }
  if (!result.empty()) {
    const std::int32_t lowest = offers[result.back()].priority;
    for (const auto idx : candidate_set) {
      if (offers[idx].valid_at(now) && offers[idx].priority > lowest) {
        EXPECT_TRUE(seen.count(idx)) << label << ": valid offer " << idx << " with priority "
                                     << offers[idx].priority << " left out for priority " << lowest;
      }
    }
  }
}

TEST(CatalogSelection, EmptyCandidatesGiveNothing) {
  const std::vector<LiveOffer> offers = {offer(1, 5)};
  FastRng rng(1);
  EXPECT_TRUE(select_offers(offers, {}, 5, kNow, rng).empty());
  const std::vector<std::uint32_t> c = {0};
  EXPECT_TRUE(select_offers(offers, c, 0, kNow, rng).empty());
}

TEST(CatalogSelection, ValidityWindowIsHalfOpen) {
  const std::vector<LiveOffer> offers = {
      offer(1, 9, kNow, kNow + 1),      // valid exactly at now
      offer(2, 9, kNow + 1, kOpenEnd),  // starts later
      offer(3, 9, kOpenStart, kNow),    // ended exactly at now
      offer(4, 9, kNow - 10, kNow + 10), offer(5, 9),
  };
  const auto c = sorted_candidates(offers);
  FastRng rng(7);
  for (int i = 0; i < 200; ++i) {
    auto r = select_offers(offers, c, 20, kNow, rng);
    std::sort(r.begin(), r.end());
    EXPECT_EQ(r, (std::vector<std::uint32_t>{0, 3, 4}));
  }
}

TEST(CatalogSelection, HigherPriorityAlwaysFirst) {
  const std::vector<LiveOffer> offers = {offer(1, 1),  offer(2, 10), offer(3, 5),
                                         offer(4, 10), offer(5, 1),  offer(6, 5)};
  const auto c = sorted_candidates(offers);
  FastRng rng(3);
  for (int i = 0; i < 500; ++i) {
    const auto r = select_offers(offers, c, 3, kNow, rng);
    ASSERT_EQ(r.size(), 3u);
    const std::set<std::uint32_t> top(r.begin(), r.begin() + 2);
    EXPECT_EQ(top, (std::set<std::uint32_t>{1, 3}));
    EXPECT_EQ(offers[r[2]].priority, 5);
  }
}

TEST(CatalogSelection, InvalidHigherTierFallsThroughToNextTier) {
  std::vector<LiveOffer> offers;
  for (std::uint64_t i = 0; i < 50; ++i) offers.push_back(offer(i, 100, kOpenStart, kNow - 1));
  offers.push_back(offer(50, 100));
  for (std::uint64_t i = 51; i < 60; ++i) offers.push_back(offer(i, 1));
  const auto c = sorted_candidates(offers);
  FastRng rng(11);
  for (int i = 0; i < 100; ++i) {
    const auto r = select_offers(offers, c, 4, kNow, rng);
    ASSERT_EQ(r.size(), 4u);
    EXPECT_EQ(r[0], 50u);
    for (std::size_t k = 1; k < r.size(); ++k) EXPECT_EQ(offers[r[k]].priority, 1);
    check_selection(offers, c, 4, kNow, r, "fallthrough");
  }
}

// Random catalogs: the rules hold for every call.
TEST(CatalogSelection, PropertiesOverRandomCatalogs) {
  FastRng gen(0x5eed'1234'abcdULL);
  FastRng rng(42);
  const std::int32_t priorities[] = {-5, 0, 0, 1, 3, 3, 10, 100};
  for (int round = 0; round < 300; ++round) {
    // Sizes from tiny to large enough for the probing path of big tiers.
    const std::size_t sizes[] = {0, 1, 2, 5, 10, 30, 60, 200, 1000};
    const std::size_t n = sizes[gen.below(std::size(sizes))] + gen.below(5);
    const std::int32_t priority_span =
        static_cast<std::int32_t>(1 + gen.below(std::size(priorities)));
    const std::uint64_t invalid_per_mille = gen.below(4) * 300;  // 0%, 30%, 60%, 90%
    std::vector<LiveOffer> offers;
    offers.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
      const std::int32_t p = priorities[gen.below(static_cast<std::uint64_t>(priority_span))];
      std::int64_t from = kOpenStart;
      std::int64_t until = kOpenEnd;
      const bool make_invalid = gen.below(1000) < invalid_per_mille;
      switch (gen.below(4)) {
        case 0:  // open both ends (valid) or ended just now (invalid)
          if (make_invalid) until = kNow;
          break;
        case 1:  // window around now, or entirely in the future
          from = make_invalid ? kNow + 1 + static_cast<std::int64_t>(gen.below(1000))
                              : kNow - static_cast<std::int64_t>(gen.below(1000));
          until = from + 1 + static_cast<std::int64_t>(gen.below(5000));
          if (!make_invalid) until = std::max(until, kNow + 1);
          break;
        case 2:  // closed window in the past, or open start ending later
          until = make_invalid ? kNow - static_cast<std::int64_t>(gen.below(1000))
                               : kNow + 1 + static_cast<std::int64_t>(gen.below(1000));
          if (make_invalid) from = until - 100;
          break;
        default:  // starts exactly now (valid) or ends exactly now (invalid)
          if (make_invalid) {
            from = kNow - 5;
            until = kNow;
          } else {
            from = kNow;
          }
          break;
      }
      offers.push_back(offer(1000 + i, p, from, until));
      ASSERT_EQ(offers.back().valid_at(kNow), !make_invalid) << round << "/" << i;
    }
    auto candidates = sorted_candidates(offers);
    // Sometimes only a subset of the catalog is a candidate (a category's subtree).
    if (gen.below(3) == 0 && !candidates.empty()) {
      std::vector<std::uint32_t> subset;
      for (const auto idx : candidates) {
        if (gen.below(2) == 0) subset.push_back(idx);
      }
      candidates = std::move(subset);
    }
    const std::size_t want = 1 + gen.below(20);
    const auto result = select_offers(offers, candidates, want, kNow, rng);
    check_selection(offers, candidates, want, kNow, result,
                    "round " + std::to_string(round) + " n=" + std::to_string(n) +
                        " want=" + std::to_string(want));
    if (HasFailure()) break;
  }
}

// Each of `tier` equal offers leads about equally often.
TEST(CatalogSelection, FairRotationSmallTier) {
  std::vector<LiveOffer> offers;
  for (std::uint64_t i = 0; i < 10; ++i) offers.push_back(offer(i + 1, 7));
  const auto c = sorted_candidates(offers);
  FastRng rng(2024);
  std::vector<int> first(10, 0);
  std::vector<int> anywhere(10, 0);
  constexpr int kRuns = 20000;
  for (int i = 0; i < kRuns; ++i) {
    const auto r = select_offers(offers, c, 3, kNow, rng);
    ASSERT_EQ(r.size(), 3u);
    ++first[r[0]];
    for (const auto idx : r) ++anywhere[idx];
  }
  for (int k = 0; k < 10; ++k) {
    EXPECT_GE(first[k], kRuns * 8 / 100) << "offer " << k;
    EXPECT_LE(first[k], kRuns * 12 / 100) << "offer " << k;
    // Each appears in about 30% of answers.
    EXPECT_GE(anywhere[k], kRuns * 27 / 100) << "offer " << k;
    EXPECT_LE(anywhere[k], kRuns * 33 / 100) << "offer " << k;
  }
}

TEST(CatalogSelection, FairRotationIgnoresOffersOutsideTheirWindow) {
  std::vector<LiveOffer> offers;
  for (std::uint64_t i = 0; i < 10; ++i) {
    offers.push_back(i % 2 == 0 ? offer(i + 1, 7) : offer(i + 1, 7, kNow + 60, kOpenEnd));
  }
  const auto c = sorted_candidates(offers);
  FastRng rng(99);
  std::vector<int> first(10, 0);
  constexpr int kRuns = 20000;
  for (int i = 0; i < kRuns; ++i) {
    const auto r = select_offers(offers, c, 3, kNow, rng);
    ASSERT_EQ(r.size(), 3u);
    ++first[r[0]];
  }
  for (int k = 0; k < 10; ++k) {
    if (k % 2 == 1) {
      EXPECT_EQ(first[k], 0) << "offer " << k;
    } else {
      EXPECT_GE(first[k], kRuns * 18 / 100) << "offer " << k;
      EXPECT_LE(first[k], kRuns * 22 / 100) << "offer " << k;
    }
  }
}

// Chi-square statistic of observed counts against a uniform expectation.
double chi_square(const std::vector<int>& counts, double expected) {
  double sum = 0;
  for (const int c : counts) sum += (c - expected) * (c - expected) / expected;
  return sum;
}

TEST(CatalogSelection, FairRotationLargeTier) {
  constexpr std::size_t kTier = 1000;
  std::vector<LiveOffer> offers;
  offers.push_back(offer(1, 50));  // one higher-priority offer always leads
  for (std::uint64_t i = 0; i < kTier; ++i) offers.push_back(offer(i + 2, 20));
  offers.push_back(offer(5000, 1));  // lower tier never reached with want 6
  const auto c = sorted_candidates(offers);
  FastRng rng(777);
  std::vector<int> second(kTier, 0);  // first place within the large tier
  std::vector<int> anywhere(kTier, 0);
  constexpr int kRuns = 100000;
  for (int i = 0; i < kRuns; ++i) {
    const auto r = select_offers(offers, c, 6, kNow, rng);
    ASSERT_EQ(r.size(), 6u);
    ASSERT_EQ(r[0], 0u);
    ++second[r[1] - 1];
    for (std::size_t k = 1; k < r.size(); ++k) {
      ASSERT_GE(r[k], 1u);
      ASSERT_LE(r[k], kTier);
      ++anywhere[r[k] - 1];
    }
  }
  for (std::size_t k = 0; k < kTier; ++k) EXPECT_GT(anywhere[k], 0) << "offer " << k;
  // Expected 100 first places each; chi-square with 999 degrees of freedom has mean 999 and
  // standard deviation ~44.7. Allow 6 standard deviations.
  const double chi_first = chi_square(second, static_cast<double>(kRuns) / kTier);
  EXPECT_LT(chi_first, 999 + 6 * 44.7) << "first places are not uniform";
  const double chi_any = chi_square(anywhere, 5.0 * kRuns / kTier);
  EXPECT_LT(chi_any, 999 + 6 * 44.7) << "appearances are not uniform";
  const auto [lo, hi] = std::minmax_element(second.begin(), second.end());
  EXPECT_GE(*lo, 50);
  EXPECT_LE(*hi, 160);
}

TEST(CatalogSelection, LargeTierWithMostlyInvalidOffersStillCorrect) {
  std::vector<LiveOffer> offers;
  for (std::uint64_t i = 0; i < 5000; ++i) {
    const bool valid = i % 1000 == 3;  // 5 valid out of 5000
    offers.push_back(valid ? offer(i, 4) : offer(i, 4, kOpenStart, kNow - 1));
  }
  const auto c = sorted_candidates(offers);
  FastRng rng(5);
  std::vector<int> first(5, 0);
  for (int i = 0; i < 5000; ++i) {
    auto r = select_offers(offers, c, 3, kNow, rng);
    ASSERT_EQ(r.size(), 3u);
    check_selection(offers, c, 3, kNow, r, "mostly invalid");
    ++first[r[0] / 1000];
    if (HasFailure()) break;
  }
  for (int k = 0; k < 5; ++k) {
    EXPECT_GE(first[k], 800) << k;  // expected 1000
    EXPECT_LE(first[k], 1200) << k;
  }
  auto all = select_offers(offers, c, 20, kNow, rng);
  std::sort(all.begin(), all.end());
  EXPECT_EQ(all, (std::vector<std::uint32_t>{3, 1003, 2003, 3003, 4003}));
}

// The cost (touching O(want) entries) is left to the benchmark; here only correctness on a
// very large tier.
TEST(CatalogSelection, HundredThousandEqualOffers) {
  std::vector<LiveOffer> offers;
  offers.reserve(100000);
  for (std::uint64_t i = 0; i < 100000; ++i) offers.push_back(offer(i + 1, 0));
  const auto c = sorted_candidates(offers);
  FastRng rng(123);
  for (int i = 0; i < 1000; ++i) {
    const auto r = select_offers(offers, c, 20, kNow, rng);
    ASSERT_EQ(r.size(), 20u);
    const std::set<std::uint32_t> distinct(r.begin(), r.end());
    EXPECT_EQ(distinct.size(), 20u);
    for (const auto idx : r) EXPECT_LT(idx, 100000u);
  }
  check_selection(offers, c, 7, kNow, select_offers(offers, c, 7, kNow, rng), "100k");
}

TEST(CatalogSelection, SameSeedSameAnswer) {
  std::vector<LiveOffer> offers;
  for (std::uint64_t i = 0; i < 40; ++i) offers.push_back(offer(i, static_cast<int>(i % 3)));
  const auto c = sorted_candidates(offers);
  FastRng a(8);
  FastRng b(8);
  for (int i = 0; i < 50; ++i) {
    EXPECT_EQ(select_offers(offers, c, 5, kNow, a), select_offers(offers, c, 5, kNow, b));
  }
}

TEST(UtilFastRng, BelowStaysInRangeAndCoversIt) {
  FastRng rng(17);
  std::vector<int> hits(7, 0);
  for (int i = 0; i < 70000; ++i) {
    const auto v = rng.below(7);
    ASSERT_LT(v, 7u);
    ++hits[v];
  }
  for (const int h : hits) {
    EXPECT_GT(h, 9000);
    EXPECT_LT(h, 11000);
  }
  EXPECT_EQ(rng.below(1), 0u);
}

}  // namespace
