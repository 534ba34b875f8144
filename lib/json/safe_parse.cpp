#include "lib/json/safe_parse.h"

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

}  // namespace

std::optional<std::size_t> nesting_depth(std::string_view text, std::size_t limit) {
  DepthCounter counter(limit);
  rapidjson::MemoryStream ms(text.data(), text.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> is(ms);
  rapidjson::Reader reader;
  const auto result = reader.Parse<kFlags>(is, counter);
  if (result.IsError() && counter.max_depth <= limit) return std::nullopt;
  return counter.max_depth;
}

bool parse_untrusted(std::string_view text, rapidjson::Document& doc) {
  // First pass: syntax, encoding and depth, with no tree built.
  const auto depth = nesting_depth(text, kMaxDepth);
  if (!depth || *depth > kMaxDepth) return false;
  rapidjson::MemoryStream ms(text.data(), text.size());
  rapidjson::EncodedInputStream<rapidjson::UTF8<>, rapidjson::MemoryStream> is(ms);
  doc.ParseStream<kFlags>(is);
  return !doc.HasParseError();
}

}  // namespace placard::json
