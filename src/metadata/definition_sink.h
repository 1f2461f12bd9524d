// The seam for new definitions (a helper type, its fields and methods, and their bodies), beside
// MetadataSink's references. The offline writer adds rows to the module being rewritten
// (EditorDefinitions); the runtime profiler defines them through IMetaDataEmit and hands the new
// bodies to the runtime (profiler/emit_sink.h).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "metadata/flags.h"
#include "metadata/schema.h"
#include "support/error.h"

namespace cil::md {

class DefinitionSink {
 public:
  virtual ~DefinitionSink() = default;

  /// A new top-level TypeDef extending `extends`. The fields and methods defined next, before any
  /// other type, are its members (a TypeDef row owns the Field and MethodDef rows that follow it).
  virtual Expected<Token> define_type(std::string_view ns, std::string_view name, TypeAttributes flags, Token extends) = 0;
  /// A field of the type define_type just returned, with field signature `signature`.
  virtual Expected<Token> define_field(Token type, std::string_view name, FieldAttributes flags,
                                       std::span<const uint8_t> signature) = 0;
  /// A method of the type define_type just returned, IL and managed, whose body comes later.
  virtual Expected<Token> define_method(Token type, std::string_view name, MethodAttributes flags,
                                        std::span<const uint8_t> signature) = 0;
  /// The body (header, code and sections, as the encoder writes it) of a method define_method
  /// returned. Every new method gets one before code that calls it can run.
  virtual Status set_new_method_body(Token method, std::span<const uint8_t> body) = 0;
};

}  // namespace cil::md
