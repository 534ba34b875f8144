#include "lib/store/sync_plan_writer.h"

#include <algorithm>
#include <memory>
#include <set>
#include <unordered_map>
#include <variant>

#include "lib/db/admin_db.h"

namespace placard::db {

namespace {

// Rows per multi-row statement: large enough that 100,000 offers take a few hundred statements,
// small enough to stay far below max_allowed_packet and the 65,535 placeholders of a statement.
constexpr std::size_t kOfferChunk = 500;
constexpr std::size_t kIdChunk = 2000;

using Value = std::variant<std::monostate, std::string, std::uint64_t, bool>;

// The statements of one apply(): prepared once per text, released when apply ends (the texts
// depend on chunk sizes, so they are not kept in the session's statement cache).
class Statements {
 public:
  explicit Statements(MysqlSession& s) : session_(s) {}
  void execute(const std::string& text, const std::vector<Value>& values) {
    auto& slot = by_text_[text];
    if (!slot) slot.reset(session_.connection().prepareStatement(text));
    unsigned i = 1;
    for (const auto& v : values) {
      if (const auto* s = std::get_if<std::string>(&v)) {
        slot->setString(i, *s);
      } else if (const auto* u = std::get_if<std::uint64_t>(&v)) {
        slot->setUInt64(i, *u);
      } else if (const auto* b = std::get_if<bool>(&v)) {
        slot->setBoolean(i, *b);
      } else {
        slot->setNull(i, sql::DataType::VARCHAR);
      }
      ++i;
    }
    slot->executeUpdate();
  }

 private:
  MysqlSession& session_;
  std::unordered_map<std::string, std::unique_ptr<sql::PreparedStatement>> by_text_;
};

std::string placeholders(std::size_t rows, const std::string& row) {
  std::string out;
  out.reserve(rows * (row.size() + 1));
  for (std::size_t i = 0; i < rows; ++i) {
    if (i > 0) out += ',';
    out += row;
  }
  return out;
}

Value opt_value(const std::optional<std::string>& v) {
  if (v) return *v;
  return std::monostate{};
}

Value time_value(const std::optional<std::int64_t>& t) {
  if (t) return to_sql_datetime(*t);
  return std::monostate{};
}

// One offer row to upsert, and which columns an existing row keeps.
struct OfferWrite {
  const network::PlannedOffer* planned;
  network::Overrides keep;
  bool enable;
};

// The offer's network category ids as stored ("7,62"), whole ids within the column's 1,000 bytes.
Value category_ids(const network::NetworkOffer& o) {
  std::string out;
  for (const auto& [id, name] : o.categories) {
    if (id.empty() || id.find(',') != std::string::npos) continue;
    if (out.size() + id.size() + 1 > 1000) break;
    out += (out.empty() ? "" : ",") + id;
  }
  if (out.empty()) return std::monostate{};
  return out;
}

int group_of(const network::Overrides& k) {
  return (k.enabled ? 1 : 0) | (k.category ? 2 : 0) | (k.validity ? 4 : 0) | (k.countries ? 8 : 0);
}

// INSERT ... ON DUPLICATE KEY UPDATE on (network, external_id): new offers are created, existing
// ones refreshed except for the columns the administrator set.
std::string upsert_text(std::size_t rows, const network::Overrides& keep) {
  std::string t =
      "INSERT INTO offers (network, external_id, title, description, merchant, image_url, "
      "coupon_code, category_id, enabled, tracking_url, valid_from, valid_until, all_countries, "
      "network_category_ids) VALUES " +
      placeholders(rows, "(?,?,?,?,?,?,?,?,?,?,?,?,?,?)") +
      " ON DUPLICATE KEY UPDATE title = VALUES(title), description = VALUES(description), "
      "merchant = VALUES(merchant), image_url = VALUES(image_url), "
      "coupon_code = VALUES(coupon_code), tracking_url = VALUES(tracking_url), "
      "network_category_ids = VALUES(network_category_ids), updated_at = UTC_TIMESTAMP()";
  if (!keep.category) t += ", category_id = VALUES(category_id)";
  if (!keep.enabled) t += ", enabled = VALUES(enabled)";
  if (!keep.validity) t += ", valid_from = VALUES(valid_from), valid_until = VALUES(valid_until)";
  if (!keep.countries) t += ", all_countries = VALUES(all_countries)";
  return t;
}

void add_offer_values(std::vector<Value>& v, const std::string& network, const OfferWrite& w) {
  const auto& o = w.planned->offer;
  v.emplace_back(network);
  v.emplace_back(o.external_id);
  v.emplace_back(o.title);
  v.emplace_back(o.description.empty() ? Value{} : Value{o.description});
  v.emplace_back(o.merchant.empty() ? Value{} : Value{o.merchant});
  v.emplace_back(opt_value(o.image_url));
  v.emplace_back(opt_value(o.coupon_code));
  if (w.planned->category_id) {
    v.emplace_back(static_cast<std::uint64_t>(*w.planned->category_id));
  } else {
    v.emplace_back(std::monostate{});
  }
  v.emplace_back(w.enable);
  v.emplace_back(o.tracking_url);
  v.emplace_back(time_value(o.valid_from));
  v.emplace_back(time_value(o.valid_until));
  v.emplace_back(o.all_countries);
  v.emplace_back(category_ids(o));
}

void write_offers(Statements& st, const std::string& network, const std::vector<OfferWrite>& all) {
  std::map<int, std::vector<const OfferWrite*>> groups;
  for (const auto& w : all) groups[group_of(w.keep)].push_back(&w);
  for (const auto& [group, writes] : groups) {
    const network::Overrides keep = writes.front()->keep;
    for (std::size_t at = 0; at < writes.size(); at += kOfferChunk) {
      const std::size_t n = std::min(kOfferChunk, writes.size() - at);
      std::vector<Value> values;
      values.reserve(n * 14);
      for (std::size_t i = 0; i < n; ++i) add_offer_values(values, network, *writes[at + i]);
      st.execute(upsert_text(n, keep), values);
    }
  }
}

// "UPDATE/DELETE ... WHERE <column> IN (...)" over ids, in chunks.
void for_id_chunks(Statements& st, const std::string& head, const std::vector<std::uint64_t>& ids) {
  for (std::size_t at = 0; at < ids.size(); at += kIdChunk) {
    const std::size_t n = std::min(kIdChunk, ids.size() - at);
    std::vector<Value> values(ids.begin() + static_cast<std::ptrdiff_t>(at),
                              ids.begin() + static_cast<std::ptrdiff_t>(at + n));
    st.execute(head + " IN (" + placeholders(n, "?") + ")", values);
  }
}

std::unordered_map<std::string, std::uint64_t> ids_by_external(MysqlSession& s,
                                                               const std::string& network) {
  std::unordered_map<std::string, std::uint64_t> out;
  auto& st = s.prepared("SELECT id, external_id FROM offers WHERE network = ?");
  st.setString(1, network);
  const auto rs = query(st);
  while (rs->next()) out.emplace(rs->getString(2).asStdString(), rs->getUInt64(1));
  return out;
}

// The network's offers' country lists as stored ("AT,DE"), to replace only those that changed.
std::unordered_map<std::uint64_t, std::string> stored_countries(MysqlSession& s,
                                                                const std::string& network) {
  std::unordered_map<std::uint64_t, std::string> out;
  auto& st = s.prepared(
      "SELECT oc.offer_id, GROUP_CONCAT(oc.country_code ORDER BY oc.country_code SEPARATOR ',') "
      "FROM offer_countries oc JOIN offers o ON o.id = oc.offer_id WHERE o.network = ? "
      "GROUP BY oc.offer_id");
  st.setString(1, network);
  const auto rs = query(st);
  while (rs->next()) out.emplace(rs->getUInt64(1), rs->getString(2).asStdString());
  return out;
}

// offer_countries for every written offer whose countries are not the administrator's: the
// network's codes that exist in `countries` (none for "every selected country").
void replace_countries(MysqlSession& s, Statements& st, const std::string& network,
                       const std::vector<OfferWrite>& writes) {
  std::set<std::string> known;
  {
    const auto rs = query(s.prepared("SELECT code FROM countries"));
    while (rs->next()) known.insert(rs->getString(1).asStdString());
  }
  const auto ids = ids_by_external(s, network);
  const auto before = stored_countries(s, network);
  std::vector<std::uint64_t> clear;
  std::vector<std::pair<std::uint64_t, std::string>> rows;
  for (const auto& w : writes) {
    if (w.keep.countries) continue;
    const auto& o = w.planned->offer;
    const auto id = ids.find(o.external_id);
    if (id == ids.end()) throw DatabaseError("a synced offer cannot be found after its insert");
    std::set<std::string> codes;
    if (!o.all_countries) {
      for (const auto& c : o.countries) {
        if (known.count(c) != 0) codes.insert(c);
      }
    }
    std::string joined;
    for (const auto& c : codes) joined += (joined.empty() ? "" : ",") + c;
    const auto had = before.find(id->second);
    if ((had == before.end() ? std::string() : had->second) == joined) continue;
    if (had != before.end()) clear.push_back(id->second);
    for (const auto& c : codes) rows.emplace_back(id->second, c);
  }
  for_id_chunks(st, "DELETE FROM offer_countries WHERE offer_id", clear);
  for (std::size_t at = 0; at < rows.size(); at += kIdChunk) {
    const std::size_t n = std::min(kIdChunk, rows.size() - at);
    std::vector<Value> values;
    values.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
      values.emplace_back(rows[at + i].first);
      values.emplace_back(rows[at + i].second);
    }
    st.execute(
        "INSERT INTO offer_countries (offer_id, country_code) VALUES " + placeholders(n, "(?,?)"),
        values);
  }
}

void upsert_categories(Statements& st, const std::string& network,
                       const std::vector<std::pair<std::string, std::string>>& seen) {
  for (std::size_t at = 0; at < seen.size(); at += kOfferChunk) {
    const std::size_t n = std::min(kOfferChunk, seen.size() - at);
    std::vector<Value> values;
    values.reserve(3 * n);
    for (std::size_t i = 0; i < n; ++i) {
      values.emplace_back(network);
      values.emplace_back(seen[at + i].first);
      values.emplace_back(seen[at + i].second);
    }
    st.execute("INSERT INTO network_categories (network, external_id, name) VALUES " +
                   placeholders(n, "(?,?,?)") +
                   " ON DUPLICATE KEY UPDATE name = VALUES(name), "
                   "last_seen_at = UTC_TIMESTAMP()",
               values);
  }
}
}  // namespace

void write_sync_plan(MysqlSession& s, const std::string& network, const network::SyncPlan& plan) {
  std::vector<OfferWrite> writes;
  writes.reserve(plan.create.size() + plan.update.size());
  for (const auto& c : plan.create) writes.push_back({&c, {}, true});
  for (const auto& u : plan.update) writes.push_back({&u.planned, u.keep, u.enable});
  Statements st(s);
  upsert_categories(st, network, plan.categories_seen);
  write_offers(st, network, writes);
  replace_countries(s, st, network, writes);
  for_id_chunks(st, "UPDATE offers SET enabled = 0, updated_at = UTC_TIMESTAMP() WHERE id",
                plan.disable);
}

}  // namespace placard::db
