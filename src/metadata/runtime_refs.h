// References to runtime types and members that injected code calls, resolved without loading
// any reference assembly: scoped to the core library the module already depends on
// (System.Private.CoreLib for .NET, mscorlib for .NET Framework and Mono, netstandard), or to
// the module's own definitions when it is the core library. It works over any MetadataSink: the
// offline ModuleEditor and the profiler's sink over the runtime's metadata resolve alike.
#pragma once

#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "metadata/metadata_sink.h"

namespace cil::md {

enum class CoreLibraryKind { PrivateCoreLib, Mscorlib, Netstandard };

class RuntimeRefs {
 public:
  /// Finds the core library of `sink`'s module; fails when there is none to scope to.
  static Expected<RuntimeRefs> create(MetadataSink& sink);

  CoreLibraryKind kind() const { return kind_; }
  /// True when the module is the core library itself (references become its own definitions).
  bool self() const { return self_; }
  Token scope() const { return scope_; }

  /// A type of the core library (TypeRef, or the TypeDef when the module is the core library).
  Expected<Token> type(std::string_view ns, std::string_view name);
  /// A type in another framework assembly, through an AssemblyRef to it.
  Expected<Token> type_in(const AssemblyRefSpec& assembly, std::string_view ns, std::string_view name);
  /// A method or field of `type` with this signature (MemberRef, or the definition when local).
  Expected<Token> member(Token type, std::string_view name, std::span<const uint8_t> signature);

  /// The AssemblyRef spec of the framework assembly that holds System.Diagnostics.Process
  /// for this core library kind.
  AssemblyRefSpec process_assembly() const;
  /// Likewise for System.Console (outside System.Private.CoreLib on .NET).
  AssemblyRefSpec console_assembly() const;
  /// Likewise for System.IO.MemoryMappedFiles (System.Core on .NET Framework).
  AssemblyRefSpec memory_mapped_files_assembly() const;
  /// Likewise for System.IO.Compression's DeflateStream (System on .NET Framework).
  AssemblyRefSpec compression_assembly() const;

 private:
  explicit RuntimeRefs(MetadataSink& sink) : sink_(&sink) {}
  MetadataSink* sink_;
  CoreLibraryKind kind_ = CoreLibraryKind::PrivateCoreLib;
  bool self_ = false;
  Token scope_;
};

}  // namespace cil::md
