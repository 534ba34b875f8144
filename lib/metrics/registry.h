#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lib/metrics/counter.h"
#include "lib/metrics/histogram.h"

namespace placard::metrics {

using Labels = std::vector<std::pair<std::string, std::string>>;
// A gauge is read when scraped; nullopt leaves its sample out (e.g. no snapshot yet).
using GaugeRead = std::function<std::optional<double>()>;

// The worker's metrics: counters and histograms it owns (stable addresses, updated lock-free by
// the request threads), and gauges read through callbacks when scraped. Rendered in the
// Prometheus text exposition format, version 0.0.4. Registering takes a mutex (done at start-up);
// so does rendering (a scrape), never an update.
//
// Names: [a-zA-Z_:][a-zA-Z0-9_:]*; label names [a-zA-Z_][a-zA-Z0-9_]* (not "le" nor "__*").
// A name registered again with another type, help or label names throws std::logic_error; the
// same name and labels twice throws too (series are unique). Bad names throw
// std::invalid_argument.
class Registry {
 public:
  Registry() = default;
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  Counter& counter(const std::string& name, const std::string& help, Labels labels = {});
  Histogram& histogram(const std::string& name, const std::string& help, Labels labels,
                       const std::vector<std::uint64_t>& bounds_micros);
  // For objects that live as long as the registry (the event batcher, the journal).
  void gauge(const std::string& name, const std::string& help, Labels labels, GaugeRead read);

  // A gauge removed again when the handle goes (objects that end before the registry, such as
  // the worker pool's handlers).
  class Registration {
   public:
    Registration(Registry& registry, std::uint64_t id) : registry_(&registry), id_(id) {}
    ~Registration();
    Registration(Registration&& other) noexcept;
    Registration(const Registration&) = delete;
    Registration& operator=(const Registration&) = delete;
    Registration& operator=(Registration&&) = delete;
    std::uint64_t release();  // keeps the gauge for the registry's life

   private:
    Registry* registry_;
    std::uint64_t id_;
  };
  [[nodiscard]] Registration scoped_gauge(const std::string& name, const std::string& help,
                                          Labels labels, GaugeRead read);

  // The exposition: families in the order first registered, each with # HELP and # TYPE.
  std::string render() const;

 private:
  enum class Type { counter, gauge, histogram };
  struct Series {
    std::uint64_t id = 0;
    Labels labels;
    Counter* counter = nullptr;
    Histogram* histogram = nullptr;
    GaugeRead read;
  };
  struct Family {
    std::string name;
    std::string help;
    Type type;
    std::vector<std::string> label_names;
    std::vector<Series> series;
  };
  std::uint64_t add(const std::string& name, const std::string& help, Type type, Series series);
  void remove(std::uint64_t id);
  static void render_family(std::string& out, const Family& family);

  mutable std::mutex mutex_;
  std::vector<Family> families_;
  std::deque<Counter> counters_;
  std::deque<std::unique_ptr<Histogram>> histograms_;
  std::uint64_t next_id_ = 1;
};

// Text format escapes: label values (\\, \", \n) and HELP text (\\, \n).
std::string escape_label_value(std::string_view value);
std::string escape_help(std::string_view help);
// A sample value as Go's ParseFloat reads it: shortest round-trip form, NaN, +Inf, -Inf.
std::string format_value(double value);
bool valid_metric_name(std::string_view name);
bool valid_label_name(std::string_view name);

}  // namespace placard::metrics
