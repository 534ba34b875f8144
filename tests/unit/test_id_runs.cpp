// rollup_spans.ids (sql/0016_rollup_spans.sql): which ids of a span a rollup pass counted, so
// that a row that became visible later is found and counted once (lib/jobs/late_rows.h).
#include "lib/jobs/id_runs.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using placard::db::encode_id_runs;
using placard::db::ids_not_in;
using Ids = std::vector<std::uint64_t>;

TEST(IdRuns, FindsTheIdsThatCameLater) {
  const Ids counted{101, 102, 103, 107, 110};
  const auto enc = encode_id_runs(100, counted);
  EXPECT_EQ(ids_not_in(enc, 100, counted), Ids{});
  EXPECT_EQ(ids_not_in(enc, 100, {101, 102, 103, 104, 107, 108, 110}), (Ids{104, 108}));
  // Before the first run, between runs, and at the span's end.
  EXPECT_EQ(ids_not_in(enc, 100, {105}), (Ids{105}));
  EXPECT_EQ(ids_not_in(encode_id_runs(100, {105}), 100, {101, 105}), (Ids{101}));
  EXPECT_EQ(ids_not_in(enc, 100, {110, 111}), (Ids{111}));
  // A row gone since (deleted by hand) is not a late one.
  EXPECT_EQ(ids_not_in(enc, 100, {101, 110}), Ids{});
}

TEST(IdRuns, AnEmptySpanHoldsNothing) {
  const auto enc = encode_id_runs(5, {});
  EXPECT_EQ(ids_not_in(enc, 5, {}), Ids{});
  EXPECT_EQ(ids_not_in(enc, 5, {6, 9}), (Ids{6, 9}));
}

TEST(IdRuns, SizeFollowsTheRunsNotTheWidth) {
  // A billion-id gap (a jump of AUTO_INCREMENT) costs a few bytes, not a bitmap of it.
  const Ids wide{1, 1000000001};
  const auto enc = encode_id_runs(0, wide);
  EXPECT_LT(enc.size(), 40U);
  EXPECT_EQ(ids_not_in(enc, 0, {1, 500000000, 1000000001}), (Ids{500000000}));
  // A Galera node's ids, every third one: 50,000 rows in a few hundred bytes.
  Ids third;
  for (std::uint64_t i = 0; i < 50000; ++i) third.push_back(1 + 3 * i);
  const auto stride = encode_id_runs(0, third);
  EXPECT_LT(stride.size(), 1000U);
  Ids now = third;
  now.insert(now.begin() + 2, 5);  // 1, 4, 5, 7, ...: ids 5 and 149999 came later
  now.push_back(149999);
  EXPECT_EQ(ids_not_in(stride, 0, now), (Ids{5, 149999}));
  // The ids above 2^63 too.
  const std::uint64_t top = UINT64_MAX - 10;
  EXPECT_EQ(ids_not_in(encode_id_runs(top, {top + 2}), top, {top + 1, top + 2, top + 3}),
            (Ids{top + 1, top + 3}));
}

TEST(IdRuns, RefusesMalformedInput) {
  EXPECT_THROW(encode_id_runs(10, {10}), std::invalid_argument);
  EXPECT_THROW(encode_id_runs(10, {12, 11}), std::invalid_argument);
  EXPECT_THROW(ids_not_in("", 0, {1}), std::runtime_error);
  EXPECT_THROW(ids_not_in(std::string("\x05garbage", 8), 0, {1}), std::runtime_error);
  auto enc = encode_id_runs(0, {1, 2, 3});
  enc[0] = static_cast<char>(enc[0] + 1);  // the stated size no longer matches
  EXPECT_THROW(ids_not_in(enc, 0, {1}), std::runtime_error);
  EXPECT_THROW(ids_not_in(std::string("\xff\xff\xff\xff\x7f", 5), 0, {1}), std::runtime_error);
}

}  // namespace
