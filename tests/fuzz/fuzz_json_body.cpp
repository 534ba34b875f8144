// The JSON body rules (contract section 0) and the admin Body's typed getters on any bytes.
// Input: the request body as sent with Content-Type application/json.
#include <cstddef>
#include <cstdint>
#include <string>

#include "lib/admin/body.h"
#include "lib/http/api_error.h"
#include "lib/json/safe_parse.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using placard::fuzz::fuzz_check;

// Every getter, each allowed to refuse with an ApiError 400 naming the field.
void read_fields(const placard::admin::Body& body) {
  const auto attempt = [](auto&& get) {
    try {
      get();
    } catch (const placard::http::ApiError& e) {
      fuzz_check(e.status() == 400 && !e.field().empty(), "a getter refused without 400 + field");
    }
  };
  attempt([&] { (void)body.string("name", 1, 100); });
  attempt([&] { (void)body.opt_string("description", 0, 500); });
  attempt([&] { (void)body.boolean("enabled"); });
  attempt([&] { (void)body.opt_boolean("enabled"); });
  attempt([&] { (void)body.integer("priority", -1000, 1000); });
  attempt([&] { (void)body.opt_integer("priority", INT64_MIN, INT64_MAX); });
  attempt([&] { (void)body.opt_nullable_time("validFrom"); });
  attempt([&] { (void)body.opt_string_array("countries", 300); });
  (void)body.has("email");
  if (body.has("name")) (void)body.is_null("name");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = placard::fuzz::as_text(data, size);

  rapidjson::Document doc;
  const bool parsed = placard::json::parse_untrusted(text, doc);
  if (parsed) {
    fuzz_check(placard::json::is_valid_utf8(text), "parsed text that is not UTF-8");
    const auto depth = placard::json::nesting_depth(text, placard::json::kMaxDepth);
    fuzz_check(depth && *depth <= placard::json::kMaxDepth, "parsed text nested too deep");
  }
  if (placard::json::is_valid_utf8(text)) (void)placard::admin::utf8_length(text);

  placard::http::Request request;
  request.method = "POST";
  request.headers.push_back({"content-type", "application/json"});
  request.content_length = size;
  request.body = std::string(text);
  try {
    const placard::admin::Body body(
        request, {"name", "description", "enabled", "priority", "validFrom", "countries", "email"});
    fuzz_check(parsed && doc.IsObject() && size <= placard::http::kMaxBodyBytes,
               "Body took what parse_untrusted refused");
    read_fields(body);
  } catch (const placard::http::ApiError& e) {
    fuzz_check(e.status() == 400 || e.status() == 413,
               "the body rules answered neither 400 nor 413");
  }
  return 0;
}
