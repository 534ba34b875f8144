#include <gtest/gtest.h>

#include "lib/db/errors.h"
#include "lib/db/mysql_session.h"

// Deadlocks and Galera certification failures (1213), lock wait timeouts (1205): retried for
// idempotent work, then the contract's 503 (DatabaseUnavailable), never a 500. Galera's "node not
// in the primary component" (1047) counts as unreachable. No server needed: the work throws.
using placard::db::DatabaseError;
using placard::db::DatabaseUnavailable;
using placard::db::MysqlSession;

namespace {
MysqlSession session() {
  return MysqlSession(placard::db::ConnectionParams{});
}
}  // namespace

TEST(WriteConflicts, IdempotentWorkIsRetriedTwiceThenUnavailable) {
  auto s = session();
  int attempts = 0;
  EXPECT_THROW(s.run(true,
                     [&](MysqlSession&) -> int {
                       ++attempts;
                       throw sql::SQLException("Deadlock found", "40001", 1213);
                     }),
               DatabaseUnavailable);
  EXPECT_EQ(attempts, 3);
}

TEST(WriteConflicts, ARetryThatSucceedsAnswers) {
  auto s = session();
  int attempts = 0;
  const int got = s.run(true, [&](MysqlSession&) {
    if (++attempts < 2) throw sql::SQLException("Deadlock found", "40001", 1213);
    return 7;
  });
  EXPECT_EQ(got, 7);
  EXPECT_EQ(attempts, 2);
}

TEST(WriteConflicts, NonIdempotentWorkIsNotRepeatedAndAnswersUnavailable) {
  auto s = session();
  int attempts = 0;
  EXPECT_THROW(s.run(false,
                     [&](MysqlSession&) -> int {
                       ++attempts;
                       throw sql::SQLException("Lock wait timeout", "HY000", 1205);
                     }),
               DatabaseUnavailable);
  EXPECT_EQ(attempts, 1);
}

TEST(WriteConflicts, OtherErrorsStayDatabaseErrors) {
  auto s = session();
  EXPECT_THROW(
      s.run(true, [](MysqlSession&) -> int { throw sql::SQLException("syntax", "42000", 1064); }),
      DatabaseError);
}

TEST(WriteConflicts, GaleraNodeOutsideThePrimaryComponentIsUnreachable) {
  EXPECT_TRUE(MysqlSession::is_connection_error(1047));
  EXPECT_TRUE(MysqlSession::is_transient_error(1213));
  // A commit that failed as the node left the primary component: rolled back, 503 (never 500).
  EXPECT_TRUE(MysqlSession::is_connection_error(1180));
  auto s = session();
  EXPECT_THROW(s.run(false,
                     [](MysqlSession&) -> int {
                       throw sql::SQLException(
                           "Error while appending streaming replication fragment(provider "
                           "status: Not connected to Primary Component)",
                           "HY000", 1180);
                     }),
               DatabaseUnavailable);
}

TEST(WriteConflicts, AConflictThenALostNodeStillGetsItsNewConnection) {
  // The node leaves the cluster while a commit waits: 1213, then 1047 on the same connection.
  // The reconnect is not used up by the conflict's retry: the third attempt (a new connection,
  // another node of db.host) answers.
  auto s = session();
  int attempts = 0;
  const int got = s.run(true, [&](MysqlSession&) {
    ++attempts;
    if (attempts == 1) throw sql::SQLException("Deadlock found", "40001", 1213);
    if (attempts == 2) throw sql::SQLException("WSREP has not yet prepared node", "08S01", 1047);
    return 9;
  });
  EXPECT_EQ(got, 9);
  EXPECT_EQ(attempts, 3);
  attempts = 0;
  EXPECT_THROW(s.run(true,
                     [&](MysqlSession&) -> int {
                       ++attempts;
                       throw sql::SQLException("gone", "HY000", 2013);
                     }),
               DatabaseUnavailable);
  EXPECT_EQ(attempts, 2);  // one new connection, not more
}
