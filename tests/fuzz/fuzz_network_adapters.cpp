// The affiliate network adapters' answer parsing, directly and through a whole pull against a
// scripted HTTP fake. Input: the network's name on the first line ("admitad" or "awin"), then
// answers, each introduced by a line "=== <status>" (Admitad's first answer is the token's).
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <string>

#include "lib/network/admitad.h"
#include "lib/network/awin.h"
#include "lib/network/normalize.h"
#include "tests/fakes/network_fakes.h"
#include "tests/fuzz/fuzz_support.h"

namespace {

using placard::fuzz::fuzz_check;
using namespace placard::network;

// Whatever a pull hands over is normalized (contract section 8).
void check_offer(const NetworkOffer& o) {
  if (o.image_url) fuzz_check(o.image_url->rfind("https://", 0) == 0, "an image not https");
  for (const auto& c : o.countries) {
    fuzz_check(c.size() == 2 && c[0] >= 'A' && c[0] <= 'Z' && c[1] >= 'A' && c[1] <= 'Z',
               "a country that is not two upper-case letters");
  }
  fuzz_check(!o.external_id.empty(), "an offer without an external id");
}

void check_page(const OfferPage& page) {
  fuzz_check(page.pages_done >= 1 && page.pages_done <= page.pages_total,
             "pages_done beyond pages_total");
  for (const auto& o : page.offers) check_offer(o);
}

void script(fakes::ScriptedHttp& http, std::string_view answers) {
  for (const auto part : placard::fuzz::split(answers, "=== ")) {
    const auto newline = part.find('\n');
    int status = 0;
    const auto head = part.substr(0, newline);
    const auto [ptr, ec] = std::from_chars(head.data(), head.data() + head.size(), status);
    if (ec != std::errc{} || ptr == head.data()) continue;  // text before the first answer
    const auto body =
        newline == std::string_view::npos ? std::string_view{} : part.substr(newline + 1);
    std::optional<long> retry_after;
    if (status == 429 || status == 503) retry_after = static_cast<long>(body.size());
    http.add(status, std::string(body), retry_after);
  }
}

template <typename Adapter, typename... Args>
void pull(std::string_view answers, Args&&... args) {
  fakes::ScriptedHttp http;
  fakes::FakeClock clock;
  script(http, answers);
  const std::size_t scripted = http.answers.size();
  AdapterOptions options{
      "https://api.network.test", 0, 2,
      BackoffPolicy{2, std::chrono::milliseconds(100), std::chrono::seconds(60)}};
  Adapter adapter(http, clock, std::forward<Args>(args)..., options);
  try {
    adapter.pull(check_page);
  } catch (const NetworkError& e) {
    const std::string m = e.what();
    fuzz_check(m.find("s3cr3t") == std::string::npos, "an error names the secret");
  }
  fuzz_check(http.sent.size() <= scripted + 1, "a pull kept asking after the script ended");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto text = placard::fuzz::as_text(data, size);
  const auto newline = text.find('\n');
  const auto network = text.substr(0, newline);
  const auto rest =
      newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);

  // The page parsers and normalizers on the raw text.
  try {
    for (const auto& o : parse_admitad_coupons(rest).offers) check_offer(o);
  } catch (const NetworkError&) {
  }
  try {
    for (const auto& o : parse_awin_promotions(rest).offers) check_offer(o);
  } catch (const NetworkError&) {
  }
  (void)https_image(network);
  (void)parse_network_time(network);
  (void)country_code(network);
  (void)json_error_code(rest);

  if (network == "admitad") {
    AdmitadTokenCache tokens;
    pull<AdmitadAdapter>(
        rest, AdmitadCredentials{"client", placard::crypto::SecretString("s3cr3t"), "42"}, tokens);
  } else if (network == "awin") {
    pull<AwinAdapter>(rest, AwinCredentials{"98765", placard::crypto::SecretString("s3cr3t")});
  }
  return 0;
}
