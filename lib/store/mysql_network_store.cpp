#include "lib/store/mysql_network_store.h"

#include "lib/db/paged_query.h"

#include <map>
#include <stdexcept>
#include <vector>

namespace placard::db {

namespace {

// Binary columns travel as hexadecimal text (HEX() / UNHEX()), so no blob streams are needed.
std::string to_hex(const std::string& bytes) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(bytes.size() * 2);
  for (const char c : bytes) {
    const auto u = static_cast<unsigned char>(c);
    out.push_back(kDigits[u >> 4]);
    out.push_back(kDigits[u & 15]);
  }
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  throw std::runtime_error("network_credentials: a binary column is not hexadecimal");
}

std::string from_hex(const std::string& hex) {
  if (hex.size() % 2 != 0) throw std::runtime_error("network_credentials: odd hexadecimal");
  std::string out(hex.size() / 2, '\0');
  for (std::size_t i = 0; i < out.size(); ++i) {
    out[i] = static_cast<char>(hex_value(hex[2 * i]) * 16 + hex_value(hex[2 * i + 1]));
  }
  return out;
}

NetworkCategory read_category(sql::ResultSet& rs) {
  NetworkCategory c;
  c.network = rs.getString(1).asStdString();
  c.external_id = rs.getString(2).asStdString();
  c.name = rs.getString(3).asStdString();
  if (!rs.isNull(4)) c.category_path = rs.getString(4).asStdString();
  return c;
}

// Times as seconds since the epoch from the UTC DATETIMEs (independent of the session's zone).
constexpr const char* kRunColumns =
    "SELECT id, network, status, TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', started_at), "
    "TIMESTAMPDIFF(SECOND, '1970-01-01 00:00:00', finished_at), offers_seen, offers_created, "
    "offers_updated, offers_disabled, message, pages_done, pages_total, offers_skipped "
    "FROM sync_runs ";

SyncRunRow read_run(sql::ResultSet& rs) {
  SyncRunRow r;
  r.id = rs.getUInt64(1);
  r.network = rs.getString(2).asStdString();
  r.status = rs.getString(3).asStdString();
  r.started_at = rs.getInt64(4);
  if (!rs.isNull(5)) r.finished_at = rs.getInt64(5);
  r.seen = rs.getUInt(6);
  r.created = rs.getUInt(7);
  r.updated = rs.getUInt(8);
  r.disabled = rs.getUInt(9);
  if (!rs.isNull(10)) r.error = rs.getString(10).asStdString();
  r.pages_done = rs.getUInt(11);
  if (!rs.isNull(12)) r.pages_total = rs.getUInt(12);
  r.skipped = rs.getUInt(13);
  return r;
}

constexpr const char* kCategoryColumns =
    "SELECT n.network, n.external_id, n.name, c.path FROM network_categories n "
    "LEFT JOIN categories c ON c.id = n.category_id ";

}  // namespace

std::map<std::string, std::optional<std::uint32_t>> read_category_map(MysqlSession& s,
                                                                      const std::string& network) {
  std::map<std::string, std::optional<std::uint32_t>> out;
  auto& st =
      s.prepared("SELECT external_id, category_id FROM network_categories WHERE network = ?");
  st.setString(1, network);
  const auto rs = query(st);
  while (rs->next()) {
    out[rs->getString(1).asStdString()] =
        rs->isNull(2) ? std::nullopt : std::optional<std::uint32_t>(rs->getUInt(2));
  }
  return out;
}

namespace {

// After a mapping change: the imported offers carrying that network category (and no category an
// administrator set) take the first of their network categories that is mapped, or none.
void rederive_categories(MysqlSession& s, const std::string& network,
                         const std::string& external_id) {
  const auto map = read_category_map(s, network);
  std::vector<std::string> lists;
  {
    auto& st = s.prepared(
        "SELECT DISTINCT network_category_ids FROM offers WHERE network = ? "
        "AND FIND_IN_SET(?, network_category_ids) > 0");
    st.setString(1, network);
    st.setString(2, external_id);
    const auto rs = query(st);
    while (rs->next()) lists.push_back(rs->getString(1).asStdString());
  }
  auto& update = s.prepared(
      "UPDATE offers SET category_id = ?, updated_at = UTC_TIMESTAMP() WHERE network = ? "
      "AND network_category_ids = ? AND FIND_IN_SET('category', overrides) = 0 "
      "AND NOT (category_id <=> ?)");
  for (const auto& list : lists) {
    std::optional<std::uint32_t> category;
    std::size_t start = 0;
    while (!category && start <= list.size()) {
      const auto comma = list.find(',', start);
      const auto id =
          list.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
      if (const auto it = map.find(id); it != map.end()) category = it->second;
      if (comma == std::string::npos) break;
      start = comma + 1;
    }
    for (const unsigned i : {1U, 4U}) {
      if (category) {
        update.setUInt(i, *category);
      } else {
        update.setNull(i, sql::DataType::INTEGER);
      }
    }
    update.setString(2, network);
    update.setString(3, list);
    update.executeUpdate();
  }
}

}  // namespace

std::optional<network::StoredCredentials> MysqlNetworkStore::credentials(
    const std::string& network) {
  return db_.call([&](MysqlSession& s) -> std::optional<network::StoredCredentials> {
    auto& st = s.prepared(
        "SELECT key_id, HEX(iv), HEX(ciphertext), HEX(tag), UNIX_TIMESTAMP(updated_at) "
        "FROM network_credentials WHERE network = ?");
    st.setString(1, network);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    network::StoredCredentials c;
    c.key_id = rs->getString(1).asStdString();
    c.iv = from_hex(rs->getString(2).asStdString());
    c.ciphertext = from_hex(rs->getString(3).asStdString());
    c.tag = from_hex(rs->getString(4).asStdString());
    c.updated_at = rs->getInt64(5);
    return c;
  });
}

void MysqlNetworkStore::put_credentials(const std::string& network,
                                        const network::StoredCredentials& c,
                                        std::uint64_t updated_by) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "INSERT INTO network_credentials (network, key_id, iv, ciphertext, tag, updated_at, "
        "updated_by) VALUES (?, ?, UNHEX(?), UNHEX(?), UNHEX(?), UTC_TIMESTAMP(), ?) "
        "ON DUPLICATE KEY UPDATE key_id = VALUES(key_id), iv = VALUES(iv), "
        "ciphertext = VALUES(ciphertext), tag = VALUES(tag), updated_at = VALUES(updated_at), "
        "updated_by = VALUES(updated_by)");
    st.setString(1, network);
    st.setString(2, c.key_id);
    st.setString(3, to_hex(c.iv));
    st.setString(4, to_hex(c.ciphertext));
    st.setString(5, to_hex(c.tag));
    st.setUInt64(6, updated_by);
    st.executeUpdate();
  });
}

bool MysqlNetworkStore::delete_credentials(const std::string& network) {
  return db_.call([&](MysqlSession& s) {
    auto& st = s.prepared("DELETE FROM network_credentials WHERE network = ?");
    st.setString(1, network);
    return st.executeUpdate() > 0;
  });
}

std::optional<SyncRunRow> MysqlNetworkStore::last_sync(const std::string& network) {
  return db_.call([&](MysqlSession& s) -> std::optional<SyncRunRow> {
    auto& st = s.prepared(std::string(kRunColumns) +
                          "WHERE network = ? ORDER BY started_at DESC, id DESC LIMIT 1");
    st.setString(1, network);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_run(*rs);
  });
}

std::optional<SyncRunRow> MysqlNetworkStore::find_sync(std::uint64_t id) {
  return db_.call([&](MysqlSession& s) -> std::optional<SyncRunRow> {
    auto& st = s.prepared(std::string(kRunColumns) + "WHERE id = ?");
    st.setUInt64(1, id);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_run(*rs);
  });
}

SyncRunPage MysqlNetworkStore::list_syncs(const std::optional<std::string>& network, int limit,
                                          std::uint64_t offset) {
  return db_.call([&](MysqlSession& s) {
    // No filter: both networks (the ENUM's values are its only ones).
    const std::string where = network ? "WHERE network = ? " : "WHERE network <> ? ";
    SqlArgs args;
    args.add(network ? *network : std::string());
    return read_page<SyncRunPage>(s, "SELECT COUNT(*) FROM sync_runs " + where,
                                  std::string(kRunColumns) + where + "ORDER BY id DESC", args,
                                  limit, offset, [](sql::ResultSet& rs) { return read_run(rs); });
  });
}

NetworkCategoryPage MysqlNetworkStore::list_categories(const std::optional<std::string>& network,
                                                       int limit, std::uint64_t offset) {
  return db_.call([&](MysqlSession& s) {
    // No filter: both networks (the ENUM's values are its only ones).
    const std::string where = network ? "n.network = ?" : "n.network <> ?";
    SqlArgs args;
    args.add(network ? *network : std::string());
    return read_page<NetworkCategoryPage>(
        s, "SELECT COUNT(*) FROM network_categories n WHERE " + where,
        std::string(kCategoryColumns) + "WHERE " + where +
            " ORDER BY n.network, n.name, n.external_id",
        args, limit, offset, [](sql::ResultSet& rs) { return read_category(rs); });
  });
}

std::optional<NetworkCategory> MysqlNetworkStore::find_category(const std::string& network,
                                                                const std::string& external_id) {
  return db_.call([&](MysqlSession& s) -> std::optional<NetworkCategory> {
    auto& st =
        s.prepared(std::string(kCategoryColumns) + "WHERE n.network = ? AND n.external_id = ?");
    st.setString(1, network);
    st.setString(2, external_id);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return read_category(*rs);
  });
}

std::optional<std::uint32_t> MysqlNetworkStore::category_id(const std::string& path) {
  return db_.call([&](MysqlSession& s) -> std::optional<std::uint32_t> {
    auto& st = s.prepared("SELECT id FROM categories WHERE path = ?");
    st.setString(1, path);
    const auto rs = query(st);
    if (!rs->next()) return std::nullopt;
    return rs->getUInt(1);
  });
}

void MysqlNetworkStore::map_category(const std::string& network, const std::string& external_id,
                                     std::optional<std::uint32_t> category_id) {
  db_.call([&](MysqlSession& s) {
    auto& st = s.prepared(
        "UPDATE network_categories SET category_id = ?, updated_at = UTC_TIMESTAMP() "
        "WHERE network = ? AND external_id = ?");
    if (category_id) {
      st.setUInt(1, *category_id);
    } else {
      st.setNull(1, sql::DataType::INTEGER);
    }
    st.setString(2, network);
    st.setString(3, external_id);
    st.executeUpdate();
    rederive_categories(s, network, external_id);
  });
}

}  // namespace placard::db
