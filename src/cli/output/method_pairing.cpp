// The three pairing passes: token, then name and signature, then name alone.
#include "cli/output/method_pairing.h"

#include <algorithm>
#include <deque>
#include <map>
#include <string_view>
#include <unordered_map>

namespace cil::cli {

namespace {

/// Pairs the unpaired methods whose keys agree, k-th old with k-th new in list order.
template <class KeyOf>
void pair_in_order(std::span<const MethodKey> old_methods, std::span<const MethodKey> new_methods,
                   std::vector<bool>& old_done, std::vector<bool>& new_done, MethodPairing& out, KeyOf key_of) {
  using Key = decltype(key_of(new_methods[0]));
  std::map<Key, std::deque<size_t>> waiting;
  for (size_t j = 0; j < new_methods.size(); ++j)
    if (!new_done[j]) waiting[key_of(new_methods[j])].push_back(j);
  for (size_t i = 0; i < old_methods.size(); ++i) {
    if (old_done[i]) continue;
    auto it = waiting.find(key_of(old_methods[i]));
    if (it == waiting.end() || it->second.empty()) continue;
    size_t j = it->second.front();
    it->second.pop_front();
    old_done[i] = new_done[j] = true;
    out.pairs.emplace_back(i, j);
  }
}

}  // namespace

MethodPairing pair_methods(std::span<const MethodKey> old_methods, std::span<const MethodKey> new_methods) {
  MethodPairing out;
  std::vector<bool> old_done(old_methods.size()), new_done(new_methods.size());

  std::unordered_map<md::Token, size_t> new_by_token;
  for (size_t j = 0; j < new_methods.size(); ++j) new_by_token.emplace(new_methods[j].token, j);
  for (size_t i = 0; i < old_methods.size(); ++i) {
    auto it = new_by_token.find(old_methods[i].token);
    if (it == new_by_token.end() || new_done[it->second]) continue;
    const MethodKey& a = old_methods[i];
    const MethodKey& b = new_methods[it->second];
    if (a.name != b.name || a.signature != b.signature) continue;
    old_done[i] = new_done[it->second] = true;
    out.pairs.emplace_back(i, it->second);
  }
  pair_in_order(old_methods, new_methods, old_done, new_done, out, [](const MethodKey& k) {
    return std::pair<std::string_view, std::string_view>(k.name, k.signature);
  });
  pair_in_order(old_methods, new_methods, old_done, new_done, out, [](const MethodKey& k) { return std::string_view(k.name); });

  std::sort(out.pairs.begin(), out.pairs.end());
  for (size_t i = 0; i < old_methods.size(); ++i)
    if (!old_done[i]) out.only_old.push_back(i);
  for (size_t j = 0; j < new_methods.size(); ++j)
    if (!new_done[j]) out.only_new.push_back(j);
  return out;
}

}  // namespace cil::cli
