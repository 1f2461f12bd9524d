// Pairs the methods of two builds of an assembly for `diff`: by token while tokens still agree,
// then by name, so that a method inserted or removed (which shifts every later token) does not
// pair unrelated methods.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "metadata/ids.h"

namespace cil::cli {

/// What pairing looks at for one method.
struct MethodKey {
  md::Token token;
  std::string name;       ///< Ns.Type::Method; overloads share it
  std::string signature;  ///< the .method line: flags, signature, parameter names
};

/// Indexes into the two method lists given to pair_methods.
struct MethodPairing {
  std::vector<std::pair<size_t, size_t>> pairs;  ///< (old, new), in old-list order
  std::vector<size_t> only_old;                  ///< ascending
  std::vector<size_t> only_new;                  ///< ascending
};

/// Pairs `old_methods` with `new_methods` (each in token order) in three passes, each over the
/// methods the earlier passes left unpaired:
///  1. same token, same name and same signature;
///  2. same name and same signature, k-th with k-th in token order (tokens shifted);
///  3. same name, k-th with k-th in token order (the signature changed).
/// A method renamed is not paired: it is only in OLD under one name and only in NEW under the
/// other.
MethodPairing pair_methods(std::span<const MethodKey> old_methods, std::span<const MethodKey> new_methods);

}  // namespace cil::cli
