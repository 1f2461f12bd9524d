// A client of the .NET diagnostics IPC protocol (dotnet/diagnostics, documentation/design-docs/
// ipc-protocol.md), the part `attach` needs: finding a process's diagnostics socket and sending
// the profiler command set's AttachProfiler.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <sys/types.h>

#include "support/error.h"

namespace cil::cli {

/// The Unix domain socket the runtime of process `pid` listens on:
/// `$TMPDIR/dotnet-diagnostic-{pid}-{key}-socket`, TMPDIR being the process's own (else /tmp).
/// Errors name what is wrong in one line: no such process, another user's process, not a .NET
/// process (or one started with DOTNET_EnableDiagnostics=0).
Expected<std::string> diagnostics_socket(pid_t pid);

struct AttachRequest {
  uint32_t timeout_ms = 10'000;  ///< how long the runtime waits for the profiler's InitializeForAttach
  std::string clsid;             ///< "{XXXXXXXX-XXXX-XXXX-XXXX-XXXXXXXXXXXX}"
  std::string library;           ///< absolute path of the profiler library
  std::string client_data;       ///< given to InitializeForAttach as is
};

/// Sends AttachProfiler (command set 0x03, command 0x01) on `socket_path` and returns the
/// runtime's HRESULT (0: the profiler is attached). An error when the socket cannot be used or the
/// answer is not the protocol's.
Expected<uint32_t> attach_profiler(const std::string& socket_path, const AttachRequest& request);

/// The request's bytes (header and payload), for the tests.
Expected<std::string> attach_message(const AttachRequest& request);

/// A profiler left loaded by an earlier attach to `pid` (instrument/runtime_contract.h,
/// kAgentSocketPrefix): the path of its socket, or "" when there is none to talk to.
std::string agent_socket(pid_t pid);

/// Removes the profilers' attach sockets in `dir` (a process's TMPDIR, with its '/') that no
/// process will answer on: this user's, nobody listening, and the process that made it gone (a
/// SIGKILL or a crash ends a process without its removing it). Returns how many were removed.
/// agent_socket() calls it.
size_t remove_stale_agent_sockets(const std::string& dir);

/// Sends the client data to that profiler: "" when it starts the session, else its reason.
Expected<std::string> attach_agent(const std::string& socket_path, const std::string& client_data);

/// What an HRESULT the runtime answers means, in a few words ("a profiler is already attached").
std::string attach_result_text(uint32_t hresult);

}  // namespace cil::cli
