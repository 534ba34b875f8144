// http::Deferred: an answer completed on another thread, with the layers it passes on its way
// out, whichever of complete() and then() comes first.
#include "lib/http/deferred.h"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>

namespace {

using placard::http::Deferred;
using placard::http::Response;

Response text(std::string body) {
  return Response::json(200, std::move(body));
}

// A layer that appends its name to the body, or says what it caught.
Deferred::Layer named(const std::string& name) {
  return [name](const Deferred::Produce& inner) {
    try {
      auto r = inner();
      r.body += "<" + name;
      return r;
    } catch (const std::exception& e) {
      return text(std::string("caught by ") + name + ": " + e.what());
    }
  };
}

TEST(Deferred, CompletedAfterThenRunsTheLayersInsideOutAndTheSinkOnTheCompletingThread) {
  auto later = std::make_shared<Deferred>();
  later->wrap(named("inner"));
  later->wrap(named("outer"));
  std::string got;
  std::thread::id sink_thread;
  later->then([&](const Response& r) {
    got = r.body;
    sink_thread = std::this_thread::get_id();
  });
  EXPECT_EQ(got, "");
  std::thread::id completing;
  std::thread writer([&] {
    completing = std::this_thread::get_id();
    later->complete([] { return text("answer"); });
  });
  writer.join();
  EXPECT_EQ(got, "answer<inner<outer");
  EXPECT_EQ(sink_thread, completing);
}

TEST(Deferred, CompletedBeforeThenIsSentByThen) {
  auto later = std::make_shared<Deferred>();
  later->wrap(named("layer"));
  bool produced = false;
  later->complete([&] {
    produced = true;
    return text("early");
  });
  EXPECT_FALSE(produced) << "the answer is made when it can be sent, with every layer";
  std::string got;
  later->then([&](const Response& r) { got = r.body; });
  EXPECT_TRUE(produced);
  EXPECT_EQ(got, "early<layer");
}

TEST(Deferred, AnExceptionReachesTheInnermostLayerThatCatchesIt) {
  auto later = std::make_shared<Deferred>();
  later->wrap(named("catcher"));
  later->wrap(named("outer"));
  std::string got;
  later->then([&](const Response& r) { got = r.body; });
  later->complete([]() -> Response { throw std::runtime_error("no commit"); });
  EXPECT_EQ(got, "caught by catcher: no commit<outer");
}

TEST(Deferred, WhatNoLayerCatchesReachesTheSinkAsA500) {
  auto later = std::make_shared<Deferred>();
  int status = 0;
  later->then([&](const Response& r) { status = r.status; });
  later->complete([]() -> Response { throw std::runtime_error("nobody renders this"); });
  EXPECT_EQ(status, 500);
}

TEST(Deferred, NowOrLaterIsAPlainAnswerWhenTheProducerRanInline) {
  auto done = std::make_shared<Deferred>();
  done->complete([] { return text("inline"); });
  const auto r = Deferred::now_or_later(done);
  EXPECT_FALSE(r.later);
  EXPECT_EQ(r.body, "inline");

  auto failed = std::make_shared<Deferred>();
  failed->complete([]() -> Response { throw std::runtime_error("inline failure"); });
  EXPECT_THROW(Deferred::now_or_later(failed), std::runtime_error);

  auto pending = std::make_shared<Deferred>();
  const auto p = Deferred::now_or_later(pending);
  EXPECT_EQ(p.later, pending);
}

TEST(Deferred, SettledWaitsForTheCompletingThread) {
  auto later = std::make_shared<Deferred>();
  later->wrap(named("layer"));
  Response r;
  r.later = later;
  std::thread writer([later] {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    later->complete([] { return text("committed"); });
  });
  const auto got = placard::http::settled(std::move(r));
  writer.join();
  EXPECT_EQ(got.body, "committed<layer");
  EXPECT_EQ(placard::http::settled(text("plain")).body, "plain");
}

}  // namespace
