// The CGI/FastCGI parameter adapter: gateway parameters into an http::Request, then what the
// service reads from it (request id, negotiation headers, query parameters) and the answer's
// rendering. Input: "NAME=value" parameters, one per line, as FastCGI's envp gives them.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "lib/http/cgi_gateway.h"
#include "lib/http/gzip.h"
#include "lib/http/negotiation.h"
#include "lib/util/fast_rng.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using placard::fuzz::fuzz_check;

bool sane_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (const char c : id) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '.' || c == '_' || c == '-';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Each parameter in its own allocation, so ASan sees any read past its end.
  std::vector<std::string> params;
  for (const auto line : placard::fuzz::split(placard::fuzz::as_text(data, size), "\n")) {
    params.emplace_back(line);
  }
  std::vector<char*> envp;
  envp.reserve(params.size() + 1);
  for (auto& p : params) envp.push_back(p.data());
  envp.push_back(nullptr);

  auto request = placard::http::request_from_envp(envp.data());
  for (const auto& h : request.headers) {
    for (const char c : h.name) fuzz_check(c < 'A' || c > 'Z', "a header name is not lower-case");
  }
  fuzz_check(!request.body_reader || request.content_length, "a body reader without a length");

  placard::util::FastRng rng(42);
  const auto id = placard::http::choose_request_id(request, rng);
  fuzz_check(sane_id(id), "the request id is not a sane token");

  (void)placard::http::prefers_html(request.header("accept"));
  (void)placard::http::etag_matches(request.header("if-none-match"), "\"0123456789abcdef\"");
  (void)placard::http::accepts_gzip(request.header("accept-encoding"));
  for (const char* name : {"t", "token", "placement", "limit"}) (void)request.query_param(name);
  (void)request.load_body();

  placard::http::Response response = placard::http::Response::json(200, request.query);
  response.set_header("X-Request-Id", id);
  const auto head = placard::http::render_response_head(response);
  fuzz_check(head.find("\r\n\r\n") == head.size() - 4, "the answer's head is not one block");
  const auto whole = placard::http::render_response(response, request.method == "HEAD");
  fuzz_check(whole.compare(0, head.size(), head) == 0, "head and whole answer disagree");
  return 0;
}
