#include "lib/http/deferred.h"

#include <future>
#include <utility>

#include "lib/http/api_error.h"

namespace placard::http {

void Deferred::wrap(Layer layer) {
  const std::lock_guard lock(mutex_);
  layers_.push_back(std::move(layer));
}

Response Deferred::run(const Produce& produce) const {
  // Layers are not added once the sink is set, so they are read without the lock here.
  Produce inner = produce;
  for (const Layer& layer : layers_) {
    inner = [&layer, next = std::move(inner)] { return layer(next); };
  }
  try {
    return inner();
  } catch (...) {
    // Not rendered by a layer: the request is still answered (its sink gives back what the
    // request holds), as the contract's 500.
    return render_error(internal_error());
  }
}

void Deferred::complete(Produce produce) {
  {
    const std::lock_guard lock(mutex_);
    if (!sink_) {
      produced_ = std::move(produce);
      return;
    }
  }
  (*sink_)(run(produce));
}

void Deferred::then(Sink sink) {
  {
    const std::lock_guard lock(mutex_);
    if (!produced_) {
      sink_ = std::move(sink);
      return;
    }
  }
  sink(run(*produced_));
}

Response Deferred::now_or_later(std::shared_ptr<Deferred> later) {
  {
    const std::lock_guard lock(later->mutex_);
    if (later->produced_ && later->layers_.empty()) {
      const Produce produce = std::move(*later->produced_);
      later->produced_.reset();
      return produce();
    }
  }
  Response response;
  response.later = std::move(later);
  return response;
}

Response settled(Response response) {
  if (!response.later) return response;
  const auto later = std::move(response.later);
  std::promise<Response> answer;
  auto future = answer.get_future();
  later->then([&answer](const Response& r) { answer.set_value(r); });
  return future.get();
}

}  // namespace placard::http
