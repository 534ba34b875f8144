// The event writer's matching of `INSERT IGNORE ... RETURNING` rows to the requests waiting in
// its batch: one `recorded` per returned row, whatever the batch holds twice (issue 27).
#include "lib/store/returned_nonce_match.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using placard::db::match_returned_nonces;
using Flags = std::vector<bool>;

// Nonces as the writer spells them: 32 upper-case hex characters.
std::string a() {
  return std::string(32, 'A');
}
std::string b() {
  return std::string(32, 'B');
}
std::string c() {
  return std::string(32, 'C');
}

TEST(ReturnedNonceMatch, EveryReturnedNonceOfADistinctBatchIsRecorded) {
  EXPECT_EQ(match_returned_nonces({a(), b(), c()}, {c(), a(), b()}), (Flags{true, true, true}));
}

TEST(ReturnedNonceMatch, SameNonceTwiceInOneBatchIsRecordedOnce) {
  EXPECT_EQ(match_returned_nonces({a(), a()}, {a()}), (Flags{true, false}));
  // Beside other events, the sorted batch of the writer (same nonces side by side).
  EXPECT_EQ(match_returned_nonces({a(), b(), b(), c()}, {a(), b(), c()}),
            (Flags{true, true, false, true}));
}

TEST(ReturnedNonceMatch, SameNonceThreeTimesInOneBatchIsRecordedOnce) {
  EXPECT_EQ(match_returned_nonces({b(), b(), b()}, {b()}), (Flags{true, false, false}));
  EXPECT_EQ(match_returned_nonces({a(), b(), b(), b(), c()}, {b(), c()}),
            (Flags{false, true, false, false, true}));
}

TEST(ReturnedNonceMatch, NoncesAbsentFromReturningAreDuplicates) {
  // The table held them already: INSERT IGNORE inserted nothing for them.
  EXPECT_EQ(match_returned_nonces({a(), b()}, {}), (Flags{false, false}));
  EXPECT_EQ(match_returned_nonces({a(), b(), c()}, {b()}), (Flags{false, true, false}));
  EXPECT_EQ(match_returned_nonces({a(), a(), a()}, {}), (Flags{false, false, false}));
}

TEST(ReturnedNonceMatch, ExactlyOneRecordedPerReturnedRow) {
  const std::vector<std::string> batch{a(), a(), b(), b(), b(), c(), c()};
  const std::vector<std::string> returned{a(), b(), c()};
  const auto flags = match_returned_nonces(batch, returned);
  ASSERT_EQ(flags.size(), batch.size());
  for (const auto& nonce : {a(), b(), c()}) {
    int recorded = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) recorded += batch[i] == nonce && flags[i];
    EXPECT_EQ(recorded, 1) << nonce;
  }
}

TEST(ReturnedNonceMatch, NoncesCompareExactlyAsTheWriterSpellsThem) {
  // The writer binds and reads upper-case hex; another spelling is another nonce.
  const std::string lower(32, 'a');
  EXPECT_EQ(match_returned_nonces({a()}, {lower}), (Flags{false}));
  EXPECT_EQ(match_returned_nonces({}, {a()}), (Flags{}));
}

}  // namespace
