#include "lib/json/safe_parse.h"

#include <cstdint>
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

// The document's own SAX handler, refusing the value that would open a level past the limit: the
// tree is built in the same pass that checks depth (issue 24: a separate depth pass over the body
// was a third of an offers query's parse).
struct DepthLimitedBuilder {
  DepthLimitedBuilder(rapidjson::Document& doc, std::size_t limit) : doc(doc), limit(limit) {}
  bool Null() { return doc.Null(); }
  bool Bool(bool b) { return doc.Bool(b); }
  bool Int(int i) { return doc.Int(i); }
  bool Uint(unsigned i) { return doc.Uint(i); }
  bool Int64(std::int64_t i) { return doc.Int64(i); }
  bool Uint64(std::uint64_t i) { return doc.Uint64(i); }
  bool Double(double d) { return doc.Double(d); }
  bool RawNumber(const char* str, rapidjson::SizeType length, bool copy) {
    return doc.RawNumber(str, length, copy);
  }
  bool String(const char* str, rapidjson::SizeType length, bool copy) {
    return doc.String(str, length, copy);
  }
  bool Key(const char* str, rapidjson::SizeType length, bool copy) {
    return doc.Key(str, length, copy);
  }
  bool StartObject() { return enter() && doc.StartObject(); }
  bool EndObject(rapidjson::SizeType members) {
    --depth;
    return doc.EndObject(members);
  }
  bool StartArray() { return enter() && doc.StartArray(); }
  bool EndArray(rapidjson::SizeType elements) {
    --depth;
    return doc.EndArray(elements);
  }
  bool enter() { return ++depth <= limit; }

  rapidjson::Document& doc;
  std::size_t limit;
  std::size_t depth = 0;
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
  // One pass: syntax, encoding and depth, the tree built as it goes. The bytes as they are (see
  // nesting_depth), and an iterative parse, so no input recurses.
  rapidjson::MemoryStream ms(text.data(), text.size());
  rapidjson::Reader reader;
  bool ok = false;
  auto build = [&](rapidjson::Document& handler) {
    DepthLimitedBuilder builder(handler, kMaxDepth);
    ok = !reader.Parse<kFlags>(ms, builder).IsError();
    return ok;
  };
  doc.Populate(build);  // a text the parser refuses leaves doc as it was (no partial tree)
  return ok && strings_are_utf8(doc);
}

}  // namespace placard::json
