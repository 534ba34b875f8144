#include "lib/jobs/sync_job.h"
#include "lib/network/ca_bundle.h"

#include <ctime>
#include <memory>

#include "lib/db/errors.h"
#include "lib/network/awin.h"
#include "lib/network/ca_bundle.h"
#include "lib/network/credentials.h"

namespace placard::network {

namespace {

constexpr std::size_t kTitleChars = 200;     // offers.title
constexpr std::size_t kMerchantChars = 200;  // offers.merchant
constexpr std::size_t kCodeChars = 64;       // offers.coupon_code
constexpr std::size_t kUrlBytes = 2048;      // offers.image_url, offers.tracking_url
constexpr std::size_t kExternalIdBytes = 128;
constexpr std::size_t kDescriptionBytes = 60000;  // TEXT holds 65,535 bytes

// The first max_chars characters of UTF-8 text (whole characters only).
std::string utf8_prefix_chars(const std::string& s, std::size_t max_chars) {
  std::size_t chars = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if ((static_cast<unsigned char>(s[i]) & 0xC0U) != 0x80U && chars++ == max_chars) {
      return s.substr(0, i);
    }
  }
  return s;
}

std::size_t utf8_chars(const std::string& s) {
  std::size_t n = 0;
  for (const char c : s) n += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
  return n;
}

// At most max_bytes, cut before a character boundary.
std::string utf8_prefix_bytes(const std::string& s, std::size_t max_bytes) {
  if (s.size() <= max_bytes) return s;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(s[end]) & 0xC0U) == 0x80U) --end;
  return s.substr(0, end);
}

const char* label_of(const std::string& network) {
  return network == "admitad" ? "Admitad" : "Awin";
}

// Releases the named lock however the run ends.
class LockRelease {
 public:
  explicit LockRelease(db::SyncStore& store) : store_(store) {}
  ~LockRelease() {
    try {
      store_.unlock();
    } catch (...) {  // NOLINT(bugprone-empty-catch): the lock ends with the connection anyway
    }
  }
  LockRelease(const LockRelease&) = delete;
  LockRelease& operator=(const LockRelease&) = delete;

 private:
  db::SyncStore& store_;
};

// The network's answers of one run, summed: past the cap the run stops (NetworkError, which the
// adapters pass on), before another answer is parsed or held.
class CappedHttpClient : public HttpClient {
 public:
  CappedHttpClient(HttpClient& inner, std::size_t max_bytes, std::string label)
      : inner_(inner), max_bytes_(max_bytes), label_(std::move(label)) {}
  HttpResponse send(const HttpRequest& request) override {
    HttpResponse r = inner_.send(request);
    bytes_ += r.body.size();
    if (bytes_ > max_bytes_) {
      throw NetworkError("The " + label_ + " sync was stopped: the network's answers passed " +
                         std::to_string(max_bytes_) +
                         " bytes, the cap of one run (network.max_sync_bytes); nothing was "
                         "changed");
    }
    return r;
  }

 private:
  HttpClient& inner_;
  std::size_t max_bytes_;
  std::string label_;
  std::size_t bytes_ = 0;
};

}  // namespace

SyncSettings sync_settings(const config::NetworkConfig& c) {
  SyncSettings s;
  s.admitad_api_base = c.admitad_api_base;
  s.awin_api_base = c.awin_api_base;
  s.http.timeout_seconds = c.timeout_seconds;
  s.http.ca_file = ca_file_for(c.ca_file);
  s.page_size = c.page_size;
  s.max_offers = static_cast<std::size_t>(c.max_sync_offers);
  s.max_bytes = static_cast<std::size_t>(c.max_sync_bytes);
  return s;
}

NetworkOffer fit_to_columns(NetworkOffer o) {
  o.title = utf8_prefix_chars(o.title, kTitleChars);
  o.merchant = utf8_prefix_chars(o.merchant, kMerchantChars);
  o.description = utf8_prefix_bytes(o.description, kDescriptionBytes);
  if (o.image_url && o.image_url->size() > kUrlBytes) o.image_url.reset();
  if (o.coupon_code && utf8_chars(*o.coupon_code) > kCodeChars) o.coupon_code.reset();
  // Not trackable, so the plan skips (and counts) it: a cut link or id would be wrong.
  if (o.tracking_url.size() > kUrlBytes || o.external_id.size() > kExternalIdBytes ||
      o.external_id.empty()) {
    o.tracking_url.clear();
  }
  if (o.valid_from && o.valid_until && *o.valid_from >= *o.valid_until) o.valid_from.reset();
  return o;
}

SyncBegin SyncJob::begin(db::SyncStore& store, const std::string& network) {
  if (!store.try_lock()) return {SyncStart::busy, 0};
  try {
    store.fail_interrupted_runs();
    if (!store.credentials(network)) {
      store.unlock();
      return {SyncStart::not_configured, 0};
    }
    return {SyncStart::started, store.start_run(network)};  // the lock stays for run()
  } catch (...) {
    store.unlock();
    throw;
  }
}

SyncOutcome SyncJob::run(db::SyncStore& store, const std::string& network, std::uint64_t run_id,
                         std::optional<std::uint64_t> account_id, const SyncProgress& on_progress) {
  const LockRelease release(store);
  const std::lock_guard<std::mutex> one_at_a_time(run_mutex_);
  SyncOutcome out;
  std::uint32_t seen = 0;
  try {
    out = pull_and_apply(store, network, run_id, account_id, on_progress, seen);
  } catch (const NetworkError& e) {
    out.error = e.what();  // written for a person, without secrets or bodies
  } catch (const db::DatabaseUnavailable&) {
    out.error =
        "The database could not be reached while the sync was writing; nothing was "
        "changed.";
  } catch (const std::exception&) {
    out.error = std::string("The ") + label_of(network) +
                " sync failed while writing the catalog; nothing was changed.";
  }
  out.succeeded = !out.error;
  if (!out.succeeded) out.counts = {};
  store.finish_run(run_id, out.succeeded, seen, out.counts, out.error);
  return out;
}

SyncOutcome SyncJob::pull_and_apply(db::SyncStore& store, const std::string& network,
                                    std::uint64_t run_id, std::optional<std::uint64_t> account_id,
                                    const SyncProgress& on_progress, std::uint32_t& seen) {
  const auto stored = store.credentials(network);
  if (!stored) {
    throw NetworkError(std::string("The ") + label_of(network) + " credentials were removed");
  }
  if (keys_ == nullptr) {
    throw NetworkError("The stored credentials cannot be read: credentials.key is not set");
  }
  CurlHttpClient curl(settings_.http);
  CappedHttpClient http(curl, settings_.max_bytes, label_of(network));
  SystemClock clock;
  std::unique_ptr<NetworkAdapter> adapter;
  if (network == "admitad") {
    // New credentials (sealed anew on every PUT): the cached token belongs to the old ones.
    if (tokens_for_ != stored->ciphertext) tokens_.clear();
    tokens_for_ = stored->ciphertext;
    adapter = std::make_unique<AdmitadAdapter>(
        http, clock, open_admitad_credentials(*keys_, *stored), tokens_,
        AdapterOptions{settings_.admitad_api_base, AdmitadAdapter::kPerMinute, settings_.page_size,
                       settings_.backoff});
  } else {
    adapter = std::make_unique<AwinAdapter>(
        http, clock, open_awin_credentials(*keys_, *stored),
        AdapterOptions{settings_.awin_api_base, AwinAdapter::kPerMinute, settings_.page_size,
                       settings_.backoff});
  }
  std::vector<NetworkOffer> pulled;
  adapter->pull([&](const OfferPage& page) {
    if (stopping_) throw NetworkError("The sync was stopped: the worker is shutting down");
    if (pulled.size() + page.offers.size() > settings_.max_offers) {
      throw NetworkError(std::string("The ") + label_of(network) +
                         " sync was stopped: the network sent more than " +
                         std::to_string(settings_.max_offers) +
                         " offers, the cap of one run (network.max_sync_offers); nothing was "
                         "changed");
    }
    for (const auto& o : page.offers) pulled.push_back(fit_to_columns(o));
    store.progress(run_id, page.pages_done, page.pages_total);
    if (on_progress) on_progress(page.pages_done, page.pages_total);
  });
  seen = static_cast<std::uint32_t>(pulled.size());
  const auto plan = plan_sync(pulled, store.imported_offers(network), store.category_map(network),
                              static_cast<std::int64_t>(std::time(nullptr)));
  SyncOutcome out;
  out.counts = store.apply(network, plan, run_id, account_id);
  return out;
}

}  // namespace placard::network
