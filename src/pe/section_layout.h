// The section layout of an image held to what the loader maps: headers and section data inside
// the file, no two sections overlapping, every data directory inside a section.
#pragma once

#include "pe/pe_image.h"
#include "support/error.h"

namespace cil::pe {

/// Fails when a section's raw data runs past the end of the file (a truncated file): the reader
/// refuses such an image whatever the command.
Status check_section_data_in_file(const PeImage& image);

/// Checks `image`'s layout as the runtime's loader needs it (PE/COFF "Section Table"; dotnet's
/// PEDecoder::CheckSection and CheckDirectory): the headers (SizeOfHeaders) inside the file and
/// holding the section table; each section's raw data inside the file and after the headers; no
/// two sections overlapping, in the file or in memory; every data directory but the certificate
/// table (a file offset) inside one section or the headers. The same check for an input before
/// it is instrumented (a fault there is the input's) and for the output (a fault is the tool's).
Status check_section_layout(const PeImage& image);

}  // namespace cil::pe
