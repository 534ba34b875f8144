// fcgi::Turns: turns at accept() and answering, fewer than the intake threads; a read waiting
// longer than slow_after gives its turn to a waiting thread (issue 24, hardening finding 1).
#include "fcgi-app/turns.h"

#include <gtest/gtest.h>

#include <chrono>
#include <future>
#include <memory>
#include <thread>

namespace {

using placard::fcgi::Turns;
using namespace std::chrono_literals;

TEST(Turns, AThreadWaitsForATurn) {
  Turns turns(1, 50ms);
  auto first = std::make_unique<Turns::Turn>(turns);
  EXPECT_EQ(turns.free_turns(), 0);
  auto second = std::async(std::launch::async, [&] { Turns::Turn t(turns); });
  EXPECT_EQ(second.wait_for(200ms), std::future_status::timeout);
  first.reset();
  EXPECT_EQ(second.wait_for(5s), std::future_status::ready);
  EXPECT_EQ(turns.free_turns(), 1);
}

TEST(Turns, AShortWaitKeepsTheTurn) {
  Turns turns(1, 2s);
  Turns::Turn turn(turns);
  turn.waiting(true);
  std::this_thread::sleep_for(50ms);
  turn.waiting(false);
  EXPECT_TRUE(turn.held());
  EXPECT_EQ(turns.free_turns(), 0);
}

TEST(Turns, ASlowWaitGivesTheTurnToAWaitingThread) {
  Turns turns(1, 50ms);
  Turns::Turn slow(turns);
  auto other = std::async(std::launch::async, [&] {
    Turns::Turn t(turns);  // gets in once the slow reader has waited 50 ms
    return true;
  });
  slow.waiting(true);
  ASSERT_EQ(other.wait_for(5s), std::future_status::ready);  // while the read still waits
  slow.waiting(false);
  EXPECT_FALSE(slow.held());
  slow.take();  // back in line: the other thread has left, its turn is free
  EXPECT_TRUE(slow.held());
  EXPECT_EQ(turns.free_turns(), 0);
}

TEST(Turns, ATurnGivenAwayIsTakenBackBeforeTheNextRequest) {
  Turns turns(1, 20ms);
  Turns::Turn slow(turns);
  slow.waiting(true);
  for (int i = 0; i < 500 && turns.free_turns() == 0; ++i) std::this_thread::sleep_for(10ms);
  slow.waiting(false);
  EXPECT_EQ(turns.free_turns(), 1);  // given away while nobody else wanted it
  slow.take();
  EXPECT_EQ(turns.free_turns(), 0);
}

// A thread about to wait for the event writer gives its turn away at once; it takes a turn
// again before its next accept().
TEST(Turns, GivingUpAtOnceLetsAWaitingThreadIn) {
  Turns turns(1, 10s);
  Turns::Turn waiting_for_commit(turns);
  auto other = std::async(std::launch::async, [&] {
    Turns::Turn t(turns);
    return true;
  });
  EXPECT_EQ(other.wait_for(100ms), std::future_status::timeout);
  waiting_for_commit.give_up();
  EXPECT_FALSE(waiting_for_commit.held());
  ASSERT_EQ(other.wait_for(5s), std::future_status::ready);
  waiting_for_commit.give_up();  // twice is once
  EXPECT_EQ(turns.free_turns(), 1);
  waiting_for_commit.take();
  EXPECT_EQ(turns.free_turns(), 0);
}

}  // namespace
