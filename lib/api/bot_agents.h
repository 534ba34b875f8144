#pragma once
#include <span>
#include <string_view>

namespace placard::api {

// Well-known crawlers, link previewers and link scanners (mail and chat security gateways), by a
// distinctive part of their User-Agent: the one list of them (lib/api/bot_agents.cpp). Their
// impressions and clicks are answered as usual but not counted (reason "bot"). Deliberately not
// listed: generic HTTP libraries (curl, python-requests, ...) and an empty User-Agent, which
// real clients and our own tests use; and bare words such as "bot" alone, which appear in real
// device names (e.g. "Cubot").
bool is_known_bot(std::string_view user_agent);

// The list itself, lower-case (for tests and documentation).
std::span<const std::string_view> bot_agent_patterns();

}  // namespace placard::api
