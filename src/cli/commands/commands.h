// Entry points of the subcommands; each parses its own options and returns an exit code.
#pragma once

namespace cil::cli {

int run_info(int argc, char** argv);
int run_dump(int argc, char** argv);
int run_instrument(int argc, char** argv);
int run_diff(int argc, char** argv);
int run_report(int argc, char** argv);
int run_profiled(int argc, char** argv);  ///< `run`
int run_exec(int argc, char** argv);
int run_attach(int argc, char** argv);
int run_restore(int argc, char** argv);

}  // namespace cil::cli
