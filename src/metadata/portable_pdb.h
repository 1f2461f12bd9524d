// A standalone portable PDB (Portable PDB v1.0) read with the metadata reader: its #Pdb stream, the
// debug tables 0x30-0x37, and per-method views (sequence points, local scopes, custom debug
// information) for remapping and printing.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "metadata/heaps.h"
#include "metadata/ids.h"
#include "metadata/metadata.h"
#include "metadata/pdb_stream.h"
#include "metadata/sequence_points.h"
#include "support/error.h"

namespace cil::md {

/// Kinds of custom debug information whose values hold IL offsets (Roslyn's PortableCustomDebugInfoKinds).
/// State machine hoisted local scopes: (start, length) pairs, one per hoisted variable.
inline constexpr Guid kStateMachineHoistedLocalScopes = {0x1E, 0xA6, 0xA9, 0x6D, 0xC7, 0xF8, 0x74, 0x48,
                                                         0xBE, 0x62, 0x68, 0xBC, 0x56, 0x30, 0xDF, 0x71};
/// Async method stepping information: catch handler offset + 1 (0: none), then (yield offset,
/// resume offset, resume method) triples.
inline constexpr Guid kAsyncMethodSteppingInformation = {0xC5, 0x2A, 0xFD, 0x54, 0x25, 0xE9, 0x1A, 0x40,
                                                         0x9C, 0x2A, 0xF9, 0x4F, 0x17, 0x10, 0x72, 0xF8};

/// Cap on the size of a PDB the tool reads (a standalone file, or an embedded one inflated).
inline constexpr uint32_t kMaxPdbSize = 512u << 20;

/// Signature of a Windows (MSF 7.00) PDB, which the tool recognizes and cannot read.
inline constexpr std::string_view kWindowsPdbSignature = "Microsoft C/C++ MSF 7.00\r\n\x1a" "DS";

/// True when `bytes` start like a Windows PDB.
bool is_windows_pdb(std::span<const uint8_t> bytes);

class PortablePdb {
 public:
  /// Parses standalone portable PDB metadata. Fails when there is no #Pdb stream, when the tables
  /// stream holds type-system tables, or when LocalScope is not sorted by method.
  static Expected<std::unique_ptr<PortablePdb>> parse(std::vector<uint8_t> bytes);
  /// The same on bytes shared with the caller (no copy; they stay alive while the PDB does).
  static Expected<std::unique_ptr<PortablePdb>> parse(std::shared_ptr<const std::vector<uint8_t>> bytes);
  /// The same on bytes the caller keeps alive and unchanged while the PDB lives (a mapping).
  static Expected<std::unique_ptr<PortablePdb>> parse_view(std::span<const uint8_t> bytes);

  std::span<const uint8_t> bytes() const { return bytes_; }
  const Metadata& metadata() const { return metadata_; }
  const TablesStream& tables() const { return metadata_.tables(); }
  const PdbStream& pdb_stream() const { return *metadata_.pdb_stream(); }
  const PdbId& id() const { return pdb_stream().id; }
  /// MethodDef rows of the assembly, as the #Pdb stream records them.
  uint32_t method_count() const { return pdb_stream().rows[static_cast<uint8_t>(TableId::MethodDef)]; }

  /// The sequence points of `method` (none when it has no MethodDebugInformation row or no blob).
  Expected<MethodSequencePoints> sequence_points(MethodDefId method) const;
  /// The same into `out`, whose storage is reused (for loops over every method).
  Status sequence_points_into(MethodDefId method, MethodSequencePoints& out) const;
  /// The same a point at a time, without storing them (md::read_sequence_points): `header` gets
  /// the local signature and initial document, then `on_point(const SequencePoint&) -> Status`
  /// runs for each point, whose document has been checked. The first problem in blob order is
  /// the error; one of `on_point` is returned as it is.
  template <class OnPoint>
  Status read_sequence_points(MethodDefId method, MethodSequencePoints& header, OnPoint&& on_point) const {
    uint32_t rid = method.value();  // MethodDebugInformation parallels MethodDef
    header.local_signature = 0;
    header.initial_document = 0;
    ByteReader r;
    uint32_t document = 0;
    if (!CIL_TRY(sequence_points_reader(rid, r, document))) return ok();
    uint32_t documents = tables().rows(TableId::Document);
    bool passed_on = false;  // the error is on_point's or names its row already
    Status read = md::read_sequence_points(r, document, header, [&](const SequencePoint& p) -> Status {
      passed_on = true;
      if (p.document == 0 || p.document > documents) return bad_point_document(rid, p.document, r.base_offset());
      CIL_TRY(on_point(p));
      passed_on = false;
      return ok();
    });
    if (!read && !passed_on) return in_sequence_points(rid, std::move(read).error());
    return read;
  }
  /// LocalScope rows of `method`: [first, last).
  std::pair<uint32_t, uint32_t> scopes_of(MethodDefId method) const;
  /// CustomDebugInformation rows whose parent is `method`, ascending.
  std::span<const uint32_t> method_custom_debug_info(MethodDefId method) const;
  /// The Kind of a CustomDebugInformation row (the null GUID when the index is bad).
  Guid custom_debug_info_kind(uint32_t row) const;
  /// The name of `document` (Portable PDB v1.0 "Document Name Blob"), or a placeholder.
  std::string document_name(DocumentId document) const;

 private:
  PortablePdb() = default;
  /// Parses bytes_ (set, and kept alive by owned_ or the caller).
  static Expected<std::unique_ptr<PortablePdb>> parse_bytes(std::unique_ptr<PortablePdb> pdb);
  Status index();
  /// The reader of MethodDef `rid`'s sequence points blob and the row's Document; false when
  /// the method has no row or no blob.
  Expected<bool> sequence_points_reader(uint32_t rid, ByteReader& reader, uint32_t& document) const;
  static Error in_sequence_points(uint32_t rid, Error decoded);
  static Error bad_point_document(uint32_t rid, uint32_t document, uint64_t offset);

  std::shared_ptr<const std::vector<uint8_t>> owned_;  ///< the bytes, unless the caller keeps them
  std::span<const uint8_t> bytes_;
  Metadata metadata_;
  // Nothing here is sized by the #Pdb stream's method count, which describes the assembly, not
  // bytes of this file: LocalScope's method column is copied out and searched (it is sorted by
  // method), and the custom debug information of methods is a list sorted by method.
  std::vector<uint32_t> scope_methods_;  ///< the Method of each LocalScope row, in row order
  std::vector<uint32_t> cdi_methods_;  ///< MethodDef rid of each row with a MethodDef parent, ascending
  std::vector<uint32_t> cdi_rows_;     ///< those rows, in the same order
};

}  // namespace cil::md
