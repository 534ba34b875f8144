#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "lib/http/response.h"

namespace placard::http {

// An answer that another thread completes: an impression is answered once the event writer has
// committed it, and the thread that took the request does not sleep until then, it takes the
// next one (issue 24: the commit wait and its thread switches were the largest part of the
// worker's CPU per event). The layers an answer passes on its way out (the error envelope, CORS,
// the common headers) add themselves with wrap() while the request is handled; whichever thread
// completes it runs them, innermost first, and gives the result to the sink set by then().
class Deferred {
 public:
  using Produce = std::function<Response()>;  // the answer, or throws why there is none
  using Layer = std::function<Response(const Produce& inner)>;
  using Sink = std::function<void(const Response&)>;

  // Before then(): puts a layer around the answer (the last one added is the outermost). What
  // the outermost layer throws reaches the sink as the contract's 500: every request is answered.
  void wrap(Layer layer);
  // Once, by the producer. Runs the layers and the sink on this thread when then() was called
  // before; else keeps `produce` for then().
  void complete(Produce produce);
  // Once, by the consumer, after the last wrap(). Runs the layers and the sink on this thread at
  // once when the answer is complete already.
  void then(Sink sink);

  // A plain answer when `later` was completed already and has no layers (the producer ran
  // inline: it may throw here, as a handler does); else a response that carries `later`.
  static Response now_or_later(std::shared_ptr<Deferred> later);

 private:
  Response run(const Produce& produce) const;

  mutable std::mutex mutex_;
  std::vector<Layer> layers_;
  std::optional<Produce> produced_;
  std::optional<Sink> sink_;
};

// The answer itself: `response` when it is complete, else it waits for the thread completing it
// (plain CGI, and callers that have nothing else to do meanwhile).
Response settled(Response response);

}  // namespace placard::http
