#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "lib/crypto/secret_string.h"
#include "lib/network/adapter.h"
#include "lib/network/adapter_support.h"

namespace placard::network {

struct AwinCredentials {
  std::string publisher_id;
  crypto::SecretString api_token;  // wiped when dropped
};

// One page of POST /publisher/{id}/promotions parsed: the usable promotions and pagination.total.
struct AwinPage {
  std::vector<NetworkOffer> offers;
  std::uint64_t total = 0;
  std::size_t results = 0;  // promotions on the page, usable or not
};

// Throws NetworkError when the text is not the documented shape. Promotions of advertisers the
// publisher has not joined are left out (their links do not pay). Awin promotions carry no
// category: the advertiser stands in for one ("adv-<id>", the advertiser's name), so the
// operator maps advertisers to Placard categories.
AwinPage parse_awin_promotions(std::string_view body);

// Awin publisher Promotions API (contract section 8): Bearer token, filters membership "joined"
// and status "active", paged by page/pageSize until pagination.total.
class AwinAdapter : public NetworkAdapter {
 public:
  static constexpr int kDefaultPageSize = 200;
  static constexpr int kPerMinute = 20;

  AwinAdapter(HttpClient& http, Clock& clock, AwinCredentials credentials, AdapterOptions options);
  const char* name() const override { return "awin"; }
  void pull(const std::function<void(const OfferPage&)>& on_page) override;

 private:
  AwinCredentials credentials_;
  AdapterOptions options_;
  PacedSender sender_;
};

}  // namespace placard::network
