#include "lib/json/safe_parse.h"

#include <vector>

namespace placard::json {

namespace {

constexpr unsigned kFlags = rapidjson::kParseValidateEncodingFlag | rapidjson::kParseIterativeFlag;

// SAX handler that only tracks depth and stops the parse when it grows past the limit.
struct DepthCounter : rapidjson::BaseReaderHandler<rapidjson::UTF8<>, DepthCounter> {
  explicit DepthCounter(std::size_t limit) : limit(limit) {}
  bool Default() { return true; }
  bool StartObject() { return enter(); }
  bool EndObject(rapidjson::SizeType /*members*/) { return leave(); }
  bool StartArray() { return enter(); }
  bool EndArray(rapidjson::SizeType /*elements*/) { return leave(); }
  bool enter() {
    ++depth;
    if (depth > max_depth) max_depth = depth;
    return depth <= limit;
  }
  bool leave() {
    --depth;
    return true;
  }
  std::size_t limit;
  std::size_t depth = 0;
  std::size_t max_depth = 0;
};

// An output stream that drops what it is given (UTF8::Validate copies as it checks).
struct DiscardOutput {
  using Ch = char;
  void Put(Ch /*c*/) {}
};

// True when every string and member name holds valid UTF-8. The parser validates raw bytes, but
// RapidJSON 1.1 turns a lone low-surrogate escape ("\udc00") into bytes that are not UTF-8.
bool strings_are_utf8(const rapidjson::Value& root) {
  std::vector<const rapidjson::Value*> pending{&root};
  while (!pending.empty()) {
    const rapidjson::Value* v = pending.back();
    pending.pop_back();
    if (v->IsString()) {
      if (!is_valid_utf8(std::string_view(v->GetString(), v->GetStringLength()))) return false;
    } else if (v->IsArray()) {
      for (const auto& e : v->GetArray()) pending.push_back(&e);
    } else if (v->IsObject()) {
      for (const auto& m : v->GetObject()) {
        pending.push_back(&m.name);
        pending.push_back(&m.value);
      }
    }
  }
  return true;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  rapidjson::MemoryStream ms(text.data(), text.size());
  DiscardOutput sink;
  while (ms.Tell() < text.size()) {
    if (!rapidjson::UTF8<>::Validate(ms, sink)) return false;
  }
  return true;
}

std::optional<std::size_t> nesting_depth(std::string_view text, std::size_t limit) {
  DepthCounter counter(limit);
  // The bytes as they are: RapidJSON's EncodedInputStream skips a byte-order mark, and on a
  // lone 0xEF it swallowed that byte unvalidated ("\xEF9" parsed as 9; found by fuzz_json_body).
  rapidjson::MemoryStream ms(text.data(), text.size());
  rapidjson::Reader reader;
  const auto result = reader.Parse<kFlags>(ms, counter);
  if (result.IsError() && counter.max_depth <= limit) return std::nullopt;
  return counter.max_depth;
}

bool parse_untrusted(std::string_view text, rapidjson::Document& doc) {
  // A raw NUL is never valid JSON text, and RapidJSON's stream would take it for the end.
  if (text.find('\0') != std::string_view::npos) return false;
  // First pass: syntax, encoding and depth, with no tree built.
  const auto depth = nesting_depth(text, kMaxDepth);
  if (!depth || *depth > kMaxDepth) return false;
  rapidjson::MemoryStream ms(text.data(), text.size());
  doc.ParseStream<kFlags>(ms);
  return !doc.HasParseError() && strings_are_utf8(doc);
}

}  // namespace placard::json
