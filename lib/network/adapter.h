#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace placard::network {

// One offer as a network adapter hands it to the sync, normalized (contract section 8).
struct NetworkOffer {
  std::string external_id;
  std::string title;
  std::string description;  // may be empty
  std::string merchant;
  std::optional<std::string> image_url;    // always https:// when present
  std::optional<std::string> coupon_code;  // none for deals ("action" coupons, promotions)
  std::vector<std::pair<std::string, std::string>> categories;  // network category id, name
  bool all_countries = false;               // true: every selected country (Awin regions.all)
  std::vector<std::string> countries;       // ISO 3166-1 alpha-2, upper case
  std::optional<std::int64_t> valid_from;   // Unix seconds, UTC
  std::optional<std::int64_t> valid_until;  // none: open-ended
  std::string tracking_url;  // as the network gave it (the sync skips any but http/https)
};

// One page of a pull, and where the pull stands.
struct OfferPage {
  std::vector<NetworkOffer> offers;
  int pages_done = 0;   // including this one
  int pages_total = 0;  // as far as the network's count tells
};

// The pull failed: a sentence for a person ("Admitad refused the credentials"), never a secret
// or a raw answer body.
class NetworkError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A network's publisher API. pull() reads every current offer, page by page, and gives each
// page to on_page; it throws NetworkError when the network cannot be read completely (the
// caller then keeps its catalog as it was).
class NetworkAdapter {
 public:
  virtual ~NetworkAdapter() = default;
  virtual const char* name() const = 0;  // "admitad" | "awin"
  virtual void pull(const std::function<void(const OfferPage&)>& on_page) = 0;
};

}  // namespace placard::network
