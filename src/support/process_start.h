// When a process started, from /proc (proc(5)): a pid can be reused, and only the start time tells
// the process a pid named once from the one holding it now.
#pragma once

#include <sys/types.h>

namespace cil {

/// The start time of process `pid` in clock ticks since boot (/proc/PID/stat, field 22); 0 when
/// unknown (no such process, or a stat line that does not parse).
unsigned long long process_start_ticks(pid_t pid);

/// The same start time in seconds since the epoch (the ticks over _SC_CLK_TCK, plus the boot time,
/// /proc/stat's "btime"); 0 when unknown.
double process_start_epoch(pid_t pid);

}  // namespace cil
