#include "lib/metrics/registry.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <stdexcept>

namespace placard::metrics {

namespace {

bool name_char(char c, bool first, bool colon) {
  const bool alpha = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
  if (alpha || (colon && c == ':')) return true;
  return !first && c >= '0' && c <= '9';
}

bool valid_name(std::string_view name, bool colon) {
  if (name.empty()) return false;
  for (std::size_t i = 0; i < name.size(); ++i) {
    if (!name_char(name[i], i == 0, colon)) return false;
  }
  return true;
}

std::vector<std::string> names_of(const Labels& labels) {
  std::vector<std::string> out;
  out.reserve(labels.size());
  for (const auto& [name, value] : labels) out.push_back(name);
  return out;
}

// {a="x",b="y"} plus an optional extra label (the histogram's le); nothing when both are empty.
void render_labels(std::string& out, const Labels& labels, std::string_view extra_name = {},
                   std::string_view extra_value = {}) {
  if (labels.empty() && extra_name.empty()) return;
  out += '{';
  bool first = true;
  for (const auto& [name, value] : labels) {
    if (!first) out += ',';
    first = false;
    out.append(name).append("=\"").append(escape_label_value(value)).append("\"");
  }
  if (!extra_name.empty()) {
    if (!first) out += ',';
    out.append(extra_name).append("=\"").append(extra_value).append("\"");
  }
  out += '}';
}

std::string seconds_text(std::uint64_t micros) {
  return format_value(static_cast<double>(micros) / 1e6);
}

const char* type_name(int type) {
  static constexpr const char* kNames[] = {"counter", "gauge", "histogram"};
  return kNames[type];
}

}  // namespace

bool valid_metric_name(std::string_view name) {
  return valid_name(name, true);
}

bool valid_label_name(std::string_view name) {
  return valid_name(name, false) && name != "le" && name.rfind("__", 0) != 0;
}

namespace {

// Backslash and newline escaped (the text format's HELP lines), and the double quote too when
// `quote` (label values).
std::string escaped(std::string_view text, bool quote) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    if (c == '\\') {
      out += "\\\\";
    } else if (c == '\n') {
      out += "\\n";
    } else if (quote && c == '"') {
      out += "\\\"";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string escape_label_value(std::string_view value) {
  return escaped(value, true);
}

std::string escape_help(std::string_view help) {
  return escaped(help, false);
}

std::string format_value(double value) {
  if (std::isnan(value)) return "NaN";
  if (std::isinf(value)) return value > 0 ? "+Inf" : "-Inf";
  // Plain decimals where they stay short (bucket bounds read 0.0005, not 5e-04), else exponent.
  char buf[64];
  const bool plain = std::fabs(value) < 1e15 && (value == 0 || std::fabs(value) >= 1e-6);
  const auto [end, ec] = plain
                             ? std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed)
                             : std::to_chars(buf, buf + sizeof buf, value);
  return ec == std::errc{} ? std::string(buf, end) : "NaN";
}

Counter& Registry::counter(const std::string& name, const std::string& help, Labels labels) {
  const std::lock_guard lock(mutex_);
  Counter& c = counters_.emplace_back();
  Series s;
  s.labels = std::move(labels);
  s.counter = &c;
  try {
    add(name, help, Type::counter, std::move(s));
  } catch (...) {
    counters_.pop_back();
    throw;
  }
  return c;
}

Histogram& Registry::histogram(const std::string& name, const std::string& help, Labels labels,
                               const std::vector<std::uint64_t>& bounds_micros) {
  const std::lock_guard lock(mutex_);
  auto& h = histograms_.emplace_back(std::make_unique<Histogram>(bounds_micros));
  Series s;
  s.labels = std::move(labels);
  s.histogram = h.get();
  try {
    add(name, help, Type::histogram, std::move(s));
  } catch (...) {
    histograms_.pop_back();
    throw;
  }
  return *h;
}

void Registry::gauge(const std::string& name, const std::string& help, Labels labels,
                     GaugeRead read) {
  (void)scoped_gauge(name, help, std::move(labels), std::move(read)).release();
}

Registry::Registration Registry::scoped_gauge(const std::string& name, const std::string& help,
                                              Labels labels, GaugeRead read) {
  if (!read) throw std::invalid_argument("gauge " + name + " needs a read function");
  const std::lock_guard lock(mutex_);
  Series s;
  s.labels = std::move(labels);
  s.read = std::move(read);
  return Registration(*this, add(name, help, Type::gauge, std::move(s)));
}

std::uint64_t Registry::add(const std::string& name, const std::string& help, Type type,
                            Series series) {
  if (!valid_metric_name(name)) throw std::invalid_argument("bad metric name: " + name);
  for (const auto& [label, value] : series.labels) {
    if (!valid_label_name(label)) throw std::invalid_argument("bad label name: " + label);
  }
  const auto names = names_of(series.labels);
  auto family = std::find_if(families_.begin(), families_.end(),
                             [&](const Family& f) { return f.name == name; });
  if (family == families_.end()) {
    families_.push_back(Family{name, help, type, names, {}});
    family = families_.end() - 1;
  } else if (family->type != type || family->help != help || family->label_names != names) {
    throw std::logic_error("metric " + name + " registered again differently");
  }
  for (const auto& s : family->series) {
    if (s.labels == series.labels) throw std::logic_error("metric " + name + ": series twice");
  }
  series.id = next_id_++;
  family->series.push_back(std::move(series));
  return family->series.back().id;
}

void Registry::remove(std::uint64_t id) {
  const std::lock_guard lock(mutex_);
  for (auto& f : families_) {
    std::erase_if(f.series, [id](const Series& s) { return s.id == id; });
  }
}

Registry::Registration::~Registration() {
  if (registry_ != nullptr) registry_->remove(id_);
}

Registry::Registration::Registration(Registration&& other) noexcept
    : registry_(std::exchange(other.registry_, nullptr)), id_(other.id_) {}

std::uint64_t Registry::Registration::release() {
  registry_ = nullptr;
  return id_;
}

void Registry::render_family(std::string& out, const Family& family) {
  out.append("# HELP ").append(family.name).append(" ").append(escape_help(family.help));
  out.append("\n# TYPE ").append(family.name).append(" ");
  out.append(type_name(static_cast<int>(family.type))).append("\n");
  for (const auto& s : family.series) {
    if (s.counter != nullptr) {
      out += family.name;
      render_labels(out, s.labels);
      out.append(" ").append(std::to_string(s.counter->value())).append("\n");
    } else if (s.histogram != nullptr) {
      const auto r = s.histogram->read();
      for (std::size_t i = 0; i < r.cumulative.size(); ++i) {
        const std::string le =
            i < r.bounds_micros.size() ? seconds_text(r.bounds_micros[i]) : "+Inf";
        out.append(family.name).append("_bucket");
        render_labels(out, s.labels, "le", le);
        out.append(" ").append(std::to_string(r.cumulative[i])).append("\n");
      }
      out.append(family.name).append("_sum");
      render_labels(out, s.labels);
      out.append(" ").append(seconds_text(r.sum_micros)).append("\n");
      out.append(family.name).append("_count");
      render_labels(out, s.labels);
      out.append(" ").append(std::to_string(r.count())).append("\n");
    } else if (const auto v = s.read()) {
      out += family.name;
      render_labels(out, s.labels);
      out.append(" ").append(format_value(*v)).append("\n");
    }
  }
}

std::string Registry::render() const {
  const std::lock_guard lock(mutex_);
  std::string out;
  for (const auto& f : families_) render_family(out, f);
  return out;
}

}  // namespace placard::metrics
