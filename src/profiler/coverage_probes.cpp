// Coverage at run time (see coverage_probes.h).
#include "profiler/coverage_probes.h"

#include "il/body_reader.h"
#include "instrument/debug_info.h"
#include "instrument/pdb_files.h"
#include "il/instruction.h"
#include "il/method_body.h"
#include "instrument/probes.h"
#include "instrument/user_code.h"
#include "il/rewrite.h"
#include "pe/debug_directory.h"

namespace cil::profiler {

namespace {

Expected<il::EncodedBody> place(instrument::CoveragePlan& plan, md::MethodDefId method, std::string_view source_name,
                                const il::MethodBody& body, md::Token increment, instrument::ProbeKind kind, uint16_t probe_depth,
                                const std::function<int64_t*()>& allocate, std::vector<CoverageProbe>& probes) {
  il::DecodedCode code = CIL_TRY(il::decode_code(body.code, body.code_file_offset));
  md::MethodDefId source = plan.attributed(method);
  il::BodyEdit edit;
  edit.edit = [&](il::BodyModel& model) -> Status {
    return plan.place(method, source, source_name, model, probe_depth,
                      [&](il::BodyModel& m, std::string_view description, std::vector<il::Instr>& probe) {
                        int64_t* counter = allocate ? allocate() : nullptr;
                        instrument::CounterRef ref;
                        ref.address = reinterpret_cast<uint64_t>(counter);
                        instrument::counter_probe(m, ref, increment, probe, kind);
                        probes.push_back({std::string(description), counter});
                      });
  };
  return il::rewrite_body(body, code, edit);
}

}  // namespace

std::unique_ptr<ModuleCoverage> ModuleCoverage::open(const md::Module& file, const std::string& path, std::string& warning) {
  // The PDB beside the assembly, as the offline tool looks for it.
  instrument::PdbOptions options = instrument::pdb_options("", path);
  auto entries = pe::read_debug_directory(file.image());
  if (!entries) return nullptr;
  instrument::PdbSource source = instrument::find_pdb(file, *entries, options);
  // No PDB at all (the framework, most packages): not covered. One that is there but does not
  // serve: method entries only, never lines from another build.
  if (!source.pdb && (source.missing || !source.warn)) return nullptr;
  auto coverage = std::unique_ptr<ModuleCoverage>(new ModuleCoverage());
  coverage->file_ = &file;
  if (!source.pdb) warning = source.reason + "; method-level coverage for this module";
  coverage->pdb_ = std::move(source.pdb);
  coverage->plan_.emplace(file, coverage->pdb_.get(), instrument::CoverageOptions{});
  return coverage;
}

bool ModuleCoverage::has_document_under(std::string_view root) const {
  return pdb_ && instrument::documents_under(*pdb_, root);
}

bool ModuleCoverage::is_test_assembly() const { return instrument::is_test_assembly(*file_); }

Expected<il::EncodedBody> ModuleCoverage::rewrite(md::MethodDefId method, std::string_view source_name, std::span<const uint8_t> bytes,
                                                  md::Token increment, instrument::ProbeKind kind, uint16_t probe_depth,
                                                  const std::function<int64_t*()>& allocate,
                                                  std::vector<CoverageProbe>& probes) {
  il::MethodBody body = CIL_TRY(il::parse_method_body(ByteReader(bytes, 0, "method body")));
  return place(*plan_, method, source_name, body, increment, kind, probe_depth, allocate, probes);
}

Status ModuleCoverage::describe(md::MethodDefId method, std::string_view source_name, std::vector<CoverageProbe>& probes) {
  il::MethodBody body = CIL_TRY(il::read_body(*file_, method));
  auto placed = place(*plan_, method, source_name, body, md::Token(), instrument::ProbeKind::Hit, 0, nullptr, probes);
  if (!placed) return placed.error();
  return ok();
}

}  // namespace cil::profiler
