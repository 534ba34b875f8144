#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "lib/crypto/secret_string.h"
#include "lib/network/adapter.h"
#include "lib/network/adapter_support.h"

namespace placard::network {

struct AdmitadCredentials {
  std::string client_id;
  crypto::SecretString client_secret;  // wiped when dropped
  std::string website_id;
};

// Admitad's access token, kept between pulls (asking for tokens too often is itself refused,
// error_code 6). Owned by whoever runs syncs; one per process is enough.
struct AdmitadTokenCache {
  crypto::SecretString access_token;  // wiped when renewed, cleared or dropped
  std::chrono::steady_clock::time_point expires_at{};
  bool valid(std::chrono::steady_clock::time_point now) const {
    return !access_token.empty() && now < expires_at;
  }
  void clear() { access_token.clear(); }
};

// One page of GET /coupons/website/{id}/ parsed: the usable coupons and _meta.count.
struct AdmitadPage {
  std::vector<NetworkOffer> offers;
  std::uint64_t count = 0;
  std::size_t results = 0;  // coupons on the page, usable or not
};

// Throws NetworkError when the text is not the documented shape.
AdmitadPage parse_admitad_coupons(std::string_view body);

// The placeholder Admitad puts in `promocode` of coupons that need no code.
bool admitad_placeholder_code(std::string_view code);

// Admitad publisher API (contract section 8): OAuth2 client credentials (Basic authentication,
// scope coupons_for_website), coupons paged with limit/offset until _meta.count.
class AdmitadAdapter : public NetworkAdapter {
 public:
  static constexpr int kDefaultPageSize = 500;  // the largest limit the API takes
  static constexpr int kPerMinute = 600;

  AdmitadAdapter(HttpClient& http, Clock& clock, AdmitadCredentials credentials,
                 AdmitadTokenCache& tokens, AdapterOptions options);
  const char* name() const override { return "admitad"; }
  void pull(const std::function<void(const OfferPage&)>& on_page) override;

 private:
  const crypto::SecretString& token();
  HttpResponse get_page(std::uint64_t offset, int limit);

  Clock& clock_;
  AdmitadCredentials credentials_;
  AdmitadTokenCache& tokens_;
  AdapterOptions options_;
  PacedSender sender_;
};

}  // namespace placard::network
