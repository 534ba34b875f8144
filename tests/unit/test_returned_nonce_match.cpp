// The event writer's matching of `INSERT IGNORE ... RETURNING` rows to the requests waiting in
// its batch: one `recorded` per returned row, whatever the batch holds twice (issue 27).
#include "lib/db/returned_nonce_match.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace {

using placard::db::match_returned_nonces;
using Flags = std::vector<bool>;

const std::string kA(32, 'A');
const std::string kB(32, 'B');
const std::string kC(32, 'C');

TEST(ReturnedNonceMatch, EveryReturnedNonceOfADistinctBatchIsRecorded) {
  EXPECT_EQ(match_returned_nonces({kA, kB, kC}, {kC, kA, kB}), (Flags{true, true, true}));
}

TEST(ReturnedNonceMatch, SameNonceTwiceInOneBatchIsRecordedOnce) {
  EXPECT_EQ(match_returned_nonces({kA, kA}, {kA}), (Flags{true, false}));
  // Beside other events, the sorted batch of the writer (same nonces side by side).
  EXPECT_EQ(match_returned_nonces({kA, kB, kB, kC}, {kA, kB, kC}),
            (Flags{true, true, false, true}));
}

TEST(ReturnedNonceMatch, SameNonceThreeTimesInOneBatchIsRecordedOnce) {
  EXPECT_EQ(match_returned_nonces({kB, kB, kB}, {kB}), (Flags{true, false, false}));
  EXPECT_EQ(match_returned_nonces({kA, kB, kB, kB, kC}, {kB, kC}),
            (Flags{false, true, false, false, true}));
}

TEST(ReturnedNonceMatch, NoncesAbsentFromReturningAreDuplicates) {
  // The table held them already: INSERT IGNORE inserted nothing for them.
  EXPECT_EQ(match_returned_nonces({kA, kB}, {}), (Flags{false, false}));
  EXPECT_EQ(match_returned_nonces({kA, kB, kC}, {kB}), (Flags{false, true, false}));
  EXPECT_EQ(match_returned_nonces({kA, kA, kA}, {}), (Flags{false, false, false}));
}

TEST(ReturnedNonceMatch, ExactlyOneRecordedPerReturnedRow) {
  const std::vector<std::string> batch{kA, kA, kB, kB, kB, kC, kC};
  const std::vector<std::string> returned{kA, kB, kC};
  const auto flags = match_returned_nonces(batch, returned);
  ASSERT_EQ(flags.size(), batch.size());
  for (const auto& nonce : {kA, kB, kC}) {
    int recorded = 0;
    for (std::size_t i = 0; i < batch.size(); ++i) recorded += batch[i] == nonce && flags[i];
    EXPECT_EQ(recorded, 1) << nonce;
  }
}

TEST(ReturnedNonceMatch, NoncesCompareExactlyAsTheWriterSpellsThem) {
  // The writer binds and reads upper-case hex; another spelling is another nonce.
  const std::string lower(32, 'a');
  EXPECT_EQ(match_returned_nonces({kA}, {lower}), (Flags{false}));
  EXPECT_EQ(match_returned_nonces({}, {kA}), (Flags{}));
}

}  // namespace
